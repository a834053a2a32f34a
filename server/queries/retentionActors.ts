// Retention actors: who is behind one cell of a retention table (one cohort, one period), with the
// parent query's semantics recompiled from the same cohort CTEs, ordered by actor id, paginated.

import { ValidationError } from '../http/errors.js';
import type { EventStore, Row } from '../store/eventStore.js';
import type { QueryContext } from './context.js';
import type { CursorCodec } from './cursors.js';
import { addDays, bucketsOf } from '../engine/dates.js';
import { checkFilters } from '../engine/filters.js';
import { checkRange, type DateRange } from './ranges.js';
import { cohortCtes, periodExpr, type CohortDefinition } from './retention.js';
import { Binder, type BuiltSql } from '../engine/sql.js';

export interface RetentionActorsParams extends CohortDefinition, DateRange {
  /** A cohort label exactly as the retention response gives it. */
  cohort: string;
  period: number;
  cursor?: string;
  limit: number;
}

export interface RetentionActorsResponse {
  cohort: string;
  period: number;
  items: Array<{ actor_id: string }>;
  next_cursor: string | null;
}

// --- validation ------------------------------------------------------------------------------

export function validateRetentionActors(p: RetentionActorsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  checkCohort(p);
  if (p.period > p.periods) throw new ValidationError(`period ${p.period} is past periods ${p.periods}`, 'period');
}

function checkCohort(p: RetentionActorsParams): void {
  if (!bucketsOf(p.date_from, p.date_to, p.granularity).includes(p.cohort)) {
    const hint = p.granularity === 'week' ? ' (week cohorts are labelled by their Monday)' : '';
    throw new ValidationError(`cohort ${p.cohort} is not a ${p.granularity} cohort of ${p.date_from}..${p.date_to}${hint}`, 'cohort');
  }
}

// --- SQL -------------------------------------------------------------------------------------

export function buildRetentionActorsSql(p: RetentionActorsParams, ctx: QueryContext, after: string | undefined): BuiltSql {
  const b = new Binder();
  // A later period reads return events of its one bucket only.
  const returnBucket = p.granularity === 'day' ? addDays(p.cohort, p.period) : addDays(p.cohort, 7 * p.period);
  const ctes = cohortCtes(b, p, p, ctx, p.period > 0 && { bucket: returnBucket }, 'id');
  const where = [`CAST(s.cohort AS VARCHAR) = ${b.bind(p.cohort)}`];
  if (after !== undefined) where.push(`s.actor > ${b.bind(after)}`);
  // Period 0 is the whole cohort; a later period, the members who returned in that bucket.
  const from = p.period === 0 ? 'starts s' : `starts s JOIN rets r ON r.actor = s.actor AND ${periodExpr('s.cohort', 'r.bucket', p.granularity)} = ${b.bind(p.period)}`;
  const sql = `${ctes}\nSELECT s.actor FROM ${from} WHERE ${where.join(' AND ')} ORDER BY s.actor LIMIT ${b.bind(p.limit + 1)}`;
  return { sql, params: b.values };
}

// --- execution -------------------------------------------------------------------------------

export interface RetentionActorsRun {
  rows: Row[];
  scope: unknown;
}

/** The cursor scope: every parameter except the position and the page size. */
function scopeOf(p: RetentionActorsParams, ctx: QueryContext): unknown {
  const { cursor: _c, limit: _l, ...rest } = p;
  return { query: 'retention/actors', project: ctx.projectId, timezone: ctx.timezone, ...rest, segments: [...ctx.segments] };
}

export async function runRetentionActors(store: EventStore, p: RetentionActorsParams, ctx: QueryContext, cursors: CursorCodec): Promise<RetentionActorsRun> {
  const scope = scopeOf(p, ctx);
  const after = p.cursor !== undefined ? cursors.decode<string>(scope, p.cursor, 'cursor') : undefined;
  const q = buildRetentionActorsSql(p, ctx, after);
  return { rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }), scope };
}

// --- shaping ---------------------------------------------------------------------------------

export function shapeRetentionActors(run: RetentionActorsRun, p: RetentionActorsParams, cursors: CursorCodec): RetentionActorsResponse {
  // One row past the page tells whether another page exists.
  const page = run.rows.slice(0, p.limit).map((r) => String(r.actor));
  const more = run.rows.length > p.limit;
  return {
    cohort: p.cohort,
    period: p.period,
    items: page.map((actor_id) => ({ actor_id })),
    next_cursor: more ? cursors.encode(run.scope, page.at(-1)) : null,
  };
}

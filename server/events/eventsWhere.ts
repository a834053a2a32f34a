// The WHERE clause over the events table for the events list and the doctor view, and the keyset
// condition that starts a page after a position. Every value is bound; the SQL text holds only
// fixed column names and generated placeholder names.

import type { DuckDBValue } from '@duckdb/node-api';
import type { EventFilters, EventOrder } from './eventsQuery.js';
import { filtersCondition } from '../engine/conditions.js';

const NO_SEGMENTS = new Map();

export interface SqlWhere {
  sql: string;
  params: Record<string, DuckDBValue>;
}

/** A keyset position: the order's time (receipt or event time) in microseconds since the epoch (as text) and the uuid. */
export interface EventPosition {
  at: string;
  uuid: string;
}

const MICROS = /^-?\d{1,18}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isEventPosition(value: unknown): value is EventPosition {
  const p = value as EventPosition | null;
  return typeof p === 'object' && p !== null && typeof p.at === 'string' && MICROS.test(p.at) && typeof p.uuid === 'string' && UUID.test(p.uuid);
}

/** The column each order sorts by (then by uuid): the only column names an order puts into SQL. */
export const ORDER_COLUMNS: Record<EventOrder, 'received_at' | 'ts'> = { received: 'received_at', event_time: 'ts' };

export class WhereBuilder {
  private readonly clauses: string[] = [];
  private readonly params: Record<string, DuckDBValue> = {};
  private n = 0;

  /** Binds `value` and returns its placeholder. */
  bind(value: DuckDBValue): string {
    const name = `v${this.n++}`;
    this.params[name] = value;
    return `$${name}`;
  }

  add(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  build(): SqlWhere {
    return { sql: this.clauses.join(' AND '), params: this.params };
  }
}

/**
 * The filter conditions on `e` (the events table). `distinctIds` is what `actorId` resolved to:
 * the distinct ids whose events belong to that actor.
 */
export function eventFilterClauses(w: WhereBuilder, projectId: number, f: EventFilters, distinctIds?: string[]): WhereBuilder {
  w.add(`e.project_id = ${w.bind(projectId)}`);
  if (f.events) w.add(`e.event IN (${f.events.map((name) => w.bind(name)).join(', ')})`);
  if (f.userId !== undefined) w.add(`e.user_id = ${w.bind(f.userId)}`);
  if (f.anonymousId !== undefined) w.add(`e.anonymous_id = ${w.bind(f.anonymousId)}`);
  if (distinctIds) w.add(distinctIds.length === 0 ? 'false' : `e.distinct_id IN (${distinctIds.map((id) => w.bind(id)).join(', ')})`);
  if (f.sdkName !== undefined) w.add(`e.sdk_name = ${w.bind(f.sdkName)}`);
  if (f.release !== undefined) w.add(`e.release = ${w.bind(f.release)}`);
  if (f.invalidOnly) w.add('e.invalid');
  if (f.source !== undefined) w.add(`e.source = ${w.bind(f.source)}`);
  if (f.from) w.add(`e.received_at >= ${w.bind(f.from.toISOString())}::TIMESTAMPTZ`);
  if (f.to) w.add(`e.received_at < ${w.bind(f.to.toISOString())}::TIMESTAMPTZ`);
  // The queries' filter conditions, their values bound through this builder.
  if (f.props) w.add(filtersCondition({ values: [], bind: (v: DuckDBValue) => w.bind(v) }, f.props, NO_SEGMENTS));
  return w;
}

/**
 * Rows strictly after `after` in the order `column` DESC, uuid DESC. Spelled as a plain bound on the
 * column plus a tie-break, not a row comparison, so DuckDB skips every row group newer than the
 * position by its min/max and a deep page does not read the pages before it.
 */
export function afterPosition(w: WhereBuilder, after: EventPosition, column: 'received_at' | 'ts' = 'received_at'): WhereBuilder {
  const at = `make_timestamptz(${w.bind(after.at)}::BIGINT)`;
  return w.add(`e.${column} <= ${at}`).add(`(e.${column} < ${at} OR e.uuid < ${w.bind(after.uuid)}::UUID)`);
}

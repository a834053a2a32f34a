// Funnel: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { BuiltSql } from '../../engine/sql.js';
import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import type { CursorCodec } from '../cursors.js';
import { compareRange, effectiveRange, type DateRange } from '../ranges.js';
import { funnelStatements } from './statements.js';
import type { FunnelParams } from './types.js';

export interface FunnelRows {
  range: DateRange;
  aggregate: Row[];
  revenue?: Row;
}

export interface FunnelRun {
  main: FunnelRows;
  compare?: FunnelRows;
  dropped?: { rows: Row[]; scope: unknown };
}

/** The cursor scope: everything that decides the dropped list except the page position and size. */
function droppedScope(p: FunnelParams, range: DateRange, ctx: QueryContext): unknown {
  const { dropped_cursor: _c, dropped_limit: _l, compare: _x, ...rest } = p;
  return { query: 'funnel/dropped', project: ctx.projectId, timezone: ctx.timezone, ...rest, ...range, segments: [...ctx.segments] };
}

export async function runFunnel(engine: EventEngine, p: FunnelParams, ctx: QueryContext, cursors: CursorCodec): Promise<FunnelRun> {
  const range = effectiveRange(p, ctx);
  const read = (q: BuiltSql) => engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  const scope = droppedScope(p, range, ctx);
  const after = p.dropped_cursor !== undefined ? cursors.decode<string>(scope, p.dropped_cursor, 'dropped_cursor') : undefined;
  const runRange = async (r: DateRange, withDropped: boolean): Promise<{ rows: FunnelRows; dropped?: Row[] }> => {
    const built = funnelStatements[engine.kind](p, r, ctx, after);
    const [aggregate, revenue, dropped] = await Promise.all([read(built.aggregate), built.revenue ? read(built.revenue) : undefined, withDropped && built.dropped ? read(built.dropped) : undefined]);
    return { rows: { range: r, aggregate, revenue: revenue?.[0] }, dropped };
  };
  const [main, compare] = await Promise.all([runRange(range, true), p.compare ? runRange(compareRange(p.compare, range), false) : undefined]);
  return { main: main.rows, compare: compare?.rows, dropped: main.dropped ? { rows: main.dropped, scope } : undefined };
}

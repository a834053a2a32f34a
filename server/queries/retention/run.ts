// Retention: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { compareRange, effectiveRange, type DateRange } from '../ranges.js';
import { retentionStatements } from './statements.js';
import type { RetentionParams } from './types.js';

export interface RetentionRun {
  main: { range: DateRange; rows: Row[] };
  compare?: { range: DateRange; rows: Row[] };
}

export async function runRetention(engine: EventEngine, p: RetentionParams, ctx: QueryContext): Promise<RetentionRun> {
  const range = effectiveRange(p, ctx);
  const read = async (r: DateRange) => {
    const q = retentionStatements[engine.kind](p, r, ctx);
    return { range: r, rows: await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
  };
  const [main, compare] = await Promise.all([read(range), p.compare ? read(compareRange(p.compare, range)) : undefined]);
  return { main, compare };
}

// Correlations: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import { correlationsStatements } from './statements.js';
import type { CorrelationsParams } from './types.js';

export async function runCorrelations(engine: EventEngine, p: CorrelationsParams, ctx: QueryContext): Promise<{ range: DateRange; rows: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = correlationsStatements[engine.kind](p, range, ctx);
  return { range, rows: await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
}

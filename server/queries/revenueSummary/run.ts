// Revenue summary: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { revenueSummaryStatements } from './statements.js';
import type { RevenueSummaryParams } from './types.js';

export async function runRevenueSummary(engine: EventEngine, p: RevenueSummaryParams, ctx: QueryContext): Promise<Row> {
  const q = revenueSummaryStatements[engine.kind](p, ctx);
  const rows = await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

// Activity summary: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { activitySummaryStatements } from './statements.js';
import type { ActivitySummaryParams } from './types.js';

export async function runActivitySummary(engine: EventEngine, p: ActivitySummaryParams, ctx: QueryContext): Promise<Row> {
  const q = activitySummaryStatements[engine.kind](p, ctx);
  const rows = await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

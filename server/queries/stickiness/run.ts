// Stickiness: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { stickinessStatements } from './statements.js';
import type { StickinessParams } from './types.js';

export async function runStickiness(engine: EventEngine, p: StickinessParams, ctx: QueryContext): Promise<Row[]> {
  const q = stickinessStatements[engine.kind](p, ctx);
  return engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
}

// Lifecycle: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { lifecycleStatements } from './statements.js';
import type { LifecycleParams } from './types.js';

export async function runLifecycle(engine: EventEngine, p: LifecycleParams, ctx: QueryContext): Promise<Row[]> {
  const q = lifecycleStatements[engine.kind](p, ctx);
  return engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
}

// Lifecycle: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { buildLifecycleSql } from './statements.js';
import type { LifecycleParams } from './types.js';

export async function runLifecycle(store: EventStore, p: LifecycleParams, ctx: QueryContext): Promise<Row[]> {
  const q = buildLifecycleSql(p, ctx);
  return store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
}

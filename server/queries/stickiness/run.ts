// Stickiness: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { buildStickinessSql } from './statements.js';
import type { StickinessParams } from './types.js';

export async function runStickiness(store: EventStore, p: StickinessParams, ctx: QueryContext): Promise<Row[]> {
  const q = buildStickinessSql(p, ctx);
  return store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
}

// Activity summary: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { buildActivitySummarySql } from './statements.js';
import type { ActivitySummaryParams } from './types.js';

export async function runActivitySummary(store: EventStore, p: ActivitySummaryParams, ctx: QueryContext): Promise<Row> {
  const q = buildActivitySummarySql(p, ctx);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

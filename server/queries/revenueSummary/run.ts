// Revenue summary: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { buildRevenueSummarySql } from './statements.js';
import type { RevenueSummaryParams } from './types.js';

export async function runRevenueSummary(store: EventStore, p: RevenueSummaryParams, ctx: QueryContext): Promise<Row> {
  const q = buildRevenueSummarySql(p, ctx);
  const rows = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return rows[0] ?? {};
}

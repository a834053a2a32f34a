// Correlations: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import { correlationsSql } from './statements.js';
import type { CorrelationsParams } from './types.js';

export async function runCorrelations(store: EventStore, p: CorrelationsParams, ctx: QueryContext): Promise<{ range: DateRange; rows: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = correlationsSql(p, range, ctx);
  return { range, rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
}

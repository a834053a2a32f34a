// Retention: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { compareRange, effectiveRange, type DateRange } from '../ranges.js';
import { buildRetentionSql } from './statements.js';
import type { RetentionParams } from './types.js';

export interface RetentionRun {
  main: { range: DateRange; rows: Row[] };
  compare?: { range: DateRange; rows: Row[] };
}

export async function runRetention(store: EventStore, p: RetentionParams, ctx: QueryContext): Promise<RetentionRun> {
  const range = effectiveRange(p, ctx);
  const read = async (r: DateRange) => {
    const q = buildRetentionSql(p, r, ctx);
    return { range: r, rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }) };
  };
  const [main, compare] = await Promise.all([read(range), p.compare ? read(compareRange(p.compare, range)) : undefined]);
  return { main, compare };
}

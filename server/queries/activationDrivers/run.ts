// Activation drivers: runs the statements on the event store, the only part that touches it.

import type { BuiltSql } from '../../engine/sql.js';
import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import { activationDriversSql } from './statements.js';
import type { ActivationDriversParams } from './types.js';

export async function runActivationDrivers(store: EventStore, p: ActivationDriversParams, ctx: QueryContext): Promise<{ range: DateRange; totals: Row[]; counts: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = activationDriversSql(p, range, ctx);
  const read = (x: BuiltSql) => store.read(x.sql, x.params, { timeoutMs: ctx.timeoutMs });
  const [totals, counts] = await Promise.all([read(q.totals), read(q.counts)]);
  return { range, totals, counts };
}

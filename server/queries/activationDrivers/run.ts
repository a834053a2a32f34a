// Activation drivers: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { BuiltSql } from '../../engine/sql.js';
import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import { activationDriversStatements } from './statements.js';
import type { ActivationDriversParams } from './types.js';

export async function runActivationDrivers(engine: EventEngine, p: ActivationDriversParams, ctx: QueryContext): Promise<{ range: DateRange; totals: Row[]; counts: Row[] }> {
  const range = effectiveRange(p, ctx);
  const q = activationDriversStatements[engine.kind](p, range, ctx);
  const read = (x: BuiltSql) => engine.read(x.sql, x.params, { timeoutMs: ctx.timeoutMs });
  const [totals, counts] = await Promise.all([read(q.totals), read(q.counts)]);
  return { range, totals, counts };
}

// Paths: runs the statements on the event store, the only part that touches it.

import type { EventStore } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import { routesOf, type RouteCount } from './routes.js';
import { pathsSql } from './statements.js';
import type { PathsParams } from './types.js';

export interface PathsRun {
  range: DateRange;
  rows: RouteCount[];
  /** Item names by code (from 1). */
  names: string[];
}

export async function runPaths(store: EventStore, p: PathsParams, ctx: QueryContext): Promise<PathsRun> {
  const range = effectiveRange(p, ctx);
  const q = pathsSql(p, range, ctx);
  return { range, ...(await store.readChunks(q.sql, q.params, { timeoutMs: ctx.timeoutMs }, (result) => routesOf(result, p))) };
}

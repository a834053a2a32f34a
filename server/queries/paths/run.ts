// Paths: runs the statement of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import { effectiveRange, type DateRange } from '../ranges.js';
import type { RouteCount } from './routes.js';
import { pathsStatements } from './statements.js';
import type { PathsParams } from './types.js';

export interface PathsRun {
  range: DateRange;
  rows: RouteCount[];
  /** Item names by code (from 1). */
  names: string[];
  /** A listing's units (from 1): each one's actor id, and its route's place in `rows` (-1: none). */
  units?: { actor: string[]; route: Int32Array };
}

export async function runPaths(engine: EventEngine, p: PathsParams, ctx: QueryContext, listing = false): Promise<PathsRun> {
  const range = effectiveRange(p, ctx);
  const builder = pathsStatements[engine.kind];
  const q = builder.sql(p, range, ctx, listing);
  return { range, ...(await engine.readChunks(q.sql, q.params, { timeoutMs: ctx.timeoutMs }, (result) => builder.routes(result, p, listing))) };
}

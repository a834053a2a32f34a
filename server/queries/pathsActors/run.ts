// Paths actors: runs the paths statement of the engine's own builder as a listing (each unit's
// actor kept with its route), and which actors of a page have recordings; the cursor is read here.

import type { EventEngine } from '../../engine/engine.js';
import { statementsOf } from '../../engine/statements.js';
import type { QueryContext } from '../context.js';
import type { CursorCodec } from '../cursors.js';
import { runPaths, type PathsRun } from '../paths/run.js';
import type { PathsActorsParams } from './types.js';

export interface PathsActorsRun extends PathsRun {
  scope: unknown;
  /** The last actor id of the page before, from the cursor. */
  after: string | undefined;
}

/** The cursor scope: every parameter except the position and the page size. */
function scopeOf(p: PathsActorsParams, ctx: QueryContext): unknown {
  const { cursor: _c, limit: _l, ...rest } = p;
  return { query: 'paths/actors', project: ctx.projectId, timezone: ctx.timezone, revision: ctx.pathCleaning.revision, ...rest, segments: [...ctx.segments] };
}

export async function runPathsActors(engine: EventEngine, p: PathsActorsParams, ctx: QueryContext, cursors: CursorCodec): Promise<PathsActorsRun> {
  const scope = scopeOf(p, ctx);
  const after = p.cursor !== undefined ? cursors.decode<string>(scope, p.cursor, 'cursor') : undefined;
  // The people of the whole graph: a breakdown's segments are not listed.
  const { breakdown: _b, ...whole } = p;
  return { ...(await runPaths(engine, whole, ctx, true)), scope, after };
}

/** The actors among `actorIds` with at least one recording. */
export async function recordedActors(engine: EventEngine, ctx: QueryContext, actorIds: readonly string[]): Promise<Set<string>> {
  if (actorIds.length === 0) return new Set();
  const q = statementsOf(engine).replay.recordedActorsSql(ctx.projectId, actorIds);
  const rows = await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  return new Set(rows.map((r) => String(r.actor_id)));
}

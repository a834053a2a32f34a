// Retention actors: runs the statements of the engine's own builder on the engine, the only part that touches it.

import type { EventEngine, Row } from '../../engine/engine.js';
import type { QueryContext } from '../context.js';
import type { CursorCodec } from '../cursors.js';
import { retentionActorsStatements } from './statements.js';
import type { RetentionActorsParams } from './types.js';

export interface RetentionActorsRun {
  rows: Row[];
  scope: unknown;
}

/** The cursor scope: every parameter except the position and the page size. */
function scopeOf(p: RetentionActorsParams, ctx: QueryContext): unknown {
  const { cursor: _c, limit: _l, ...rest } = p;
  return { query: 'retention/actors', project: ctx.projectId, timezone: ctx.timezone, ...rest, segments: [...ctx.segments] };
}

export async function runRetentionActors(engine: EventEngine, p: RetentionActorsParams, ctx: QueryContext, cursors: CursorCodec): Promise<RetentionActorsRun> {
  const scope = scopeOf(p, ctx);
  const after = p.cursor !== undefined ? cursors.decode<string>(scope, p.cursor, 'cursor') : undefined;
  const q = retentionActorsStatements[engine.kind](p, ctx, after);
  return { rows: await engine.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }), scope };
}

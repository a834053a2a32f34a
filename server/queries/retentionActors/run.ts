// Retention actors: runs the statements on the event store, the only part that touches it.

import type { EventStore, Row } from '../../store/eventStore.js';
import type { QueryContext } from '../context.js';
import type { CursorCodec } from '../cursors.js';
import { buildRetentionActorsSql } from './statements.js';
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

export async function runRetentionActors(store: EventStore, p: RetentionActorsParams, ctx: QueryContext, cursors: CursorCodec): Promise<RetentionActorsRun> {
  const scope = scopeOf(p, ctx);
  const after = p.cursor !== undefined ? cursors.decode<string>(scope, p.cursor, 'cursor') : undefined;
  const q = buildRetentionActorsSql(p, ctx, after);
  return { rows: await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs }), scope };
}

// Retention actors: turns the rows into the answer. Pure.

import type { CursorCodec } from '../cursors.js';
import type { RetentionActorsRun } from './run.js';
import type { RetentionActorsParams, RetentionActorsResponse } from './types.js';

export function shapeRetentionActors(run: RetentionActorsRun, p: RetentionActorsParams, cursors: CursorCodec): RetentionActorsResponse {
  // One row past the page tells whether another page exists.
  const page = run.rows.slice(0, p.limit).map((r) => String(r.actor));
  const more = run.rows.length > p.limit;
  return {
    cohort: p.cohort,
    period: p.period,
    items: page.map((actor_id) => ({ actor_id })),
    next_cursor: more ? cursors.encode(run.scope, page.at(-1)) : null,
  };
}

// The ClickHouse statements of recordings. This engine keeps none yet (a recording chunk answers
// 501 engine_unsupported), so no project and no actor has any: the recordings sweep, queued when a
// project is deleted, finds nothing to delete instead of failing, and lists that mark actors with
// recordings (the paths people list) mark none. Every other recordings statement answers 501
// (statements.ts).

import type { Statement } from '../engine.js';

/** The projects holding recordings: none. */
export function recordedProjectsSql(): Statement {
  return { sql: 'SELECT toUInt32(0) AS project_id WHERE 0', params: [] };
}

/** Which of `actorIds` have recordings: none. */
export function recordedActorsSql(_projectId: number, _actorIds: readonly string[]): Statement {
  return { sql: 'SELECT toString(dummy) AS actor_id FROM system.one WHERE 0', params: [] };
}

// Recordings on ClickHouse: none is ever stored (recording chunks answer 501 there), so lists that
// mark actors with recordings (the paths people list) mark none; everything else about recordings
// answers 501.

import type { Statement } from '../engine.js';

/** Which of `actorIds` have recordings: none. */
export function recordedActorsSql(_projectId: number, _actorIds: readonly string[]): Statement {
  return { sql: 'SELECT toString(dummy) AS actor_id FROM system.one WHERE 0', params: [] };
}

// Identity resolution in ClickHouse SQL, as ../identity.ts does it on DuckDB: the actor of an event
// is its identity link's actor when one exists, else its own distinct id. identity_links is held
// whole by every node (migration 0004), so a shard joins its events to their actors locally (named
// with its database: the join runs on each shard, see literal.ts `table`); it is read with FINAL (a changed link is a new row of a larger version).

import type { ActorForm } from '../identity.js';
import { literal, table } from './literal.js';

export type { ActorForm } from '../identity.js';

/**
 * The resolved actor of the row `row` (an event), joined to its identity link (the columns
 * `l_actor_key`, `l_actor_id` and `l_linked` of `identityJoin`). ANY LEFT JOIN fills a missing link
 * with default values, not NULL: `l_linked` tells a link from none.
 */
export function actorOf(form: ActorForm = 'key', row = 'e'): string {
  return form === 'key' ? `if(l_linked = 1, l_actor_key, ${row}.distinct_key)` : `if(l_linked = 1, l_actor_id, ${row}.distinct_id)`;
}

/** The resolved actor of the event `e` as its key (a UInt64). */
export const ACTOR = actorOf();

/** The identity links of a project, joined to the rows before it by `distinct_key`. */
export function identityJoin(projectId: number): string {
  return `ANY LEFT JOIN (SELECT distinct_key, actor_key AS l_actor_key, actor_id AS l_actor_id, toUInt8(1) AS l_linked FROM ${table('identity_links')} FINAL WHERE project_id = ${literal(projectId)}) USING distinct_key`;
}

/** The events `e` of a project with their identity links (read with FINAL: rows stored twice count once). */
export function eventsWithActors(projectId: number): string {
  return `events AS e FINAL ${identityJoin(projectId)}`;
}

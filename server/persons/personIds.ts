// Who a person is: from any of their ids (a distinct id, user id or anonymous id), the actor it
// resolves to and every id of that actor: the ids linked to it (identify, alias), and the anonymous
// and user ids sent together with those on the same events. A person's rows anywhere are the rows
// that name one of these ids. Reads go through a `Read`, so the deletion job can resolve on the
// writer connection inside its transaction.

import type { DuckDBValue } from '@duckdb/node-api';
import type { Row } from '../store/eventStore.js';
import { WhereBuilder } from '../events/eventsWhere.js';

export type Read = (sql: string, params: Record<string, DuckDBValue>) => Promise<Row[]>;

export interface PersonIds {
  /** The actor the key resolves to (the key itself when unlinked). */
  actor_id: string;
  /** Every id of the person, sorted. */
  ids: string[];
  /** Those the person was identified by (a user id of their events, or the actor of a link). */
  user_ids: string[];
}

/** `column IN (ids)` with the ids bound; `false` for none. */
export function inIds(w: WhereBuilder, column: string, ids: readonly string[]): string {
  return ids.length === 0 ? 'false' : `${column} IN (${ids.map((id) => w.bind(id)).join(', ')})`;
}

/** The person `key` names in the project; `undefined` when no event, link, trait or recording names any of their ids. */
export async function resolvePerson(read: Read, projectId: number, key: string): Promise<PersonIds | undefined> {
  const w = new WhereBuilder();
  const p = w.bind(projectId);
  const k = w.bind(key);
  const linked = await read(
    `WITH a AS (SELECT COALESCE((SELECT actor_id FROM identity_links WHERE project_id = ${p} AND distinct_id = ${k}), ${k}) AS actor)
     SELECT a.actor AS id, true AS is_actor, EXISTS (SELECT 1 FROM identity_links WHERE project_id = ${p} AND actor_id = a.actor) AS linked_to FROM a
     UNION ALL
     SELECT l.distinct_id, false, false FROM identity_links l, a WHERE l.project_id = ${p} AND l.actor_id = a.actor`,
    w.build().params,
  );
  const actor = String(linked.find((r) => r.is_actor === true)!.id);
  const ids = new Set(linked.map((r) => String(r.id)));
  const users = new Set<string>(linked.some((r) => r.linked_to === true) ? [actor] : []);

  const e = new WhereBuilder();
  const seen = await read(
    `SELECT DISTINCT anonymous_id, user_id FROM events WHERE project_id = ${e.bind(projectId)} AND ${inIds(e, 'distinct_id', [...ids])}`,
    e.build().params,
  );
  for (const r of seen) {
    if (r.anonymous_id !== null) ids.add(String(r.anonymous_id));
    if (r.user_id !== null) {
      ids.add(String(r.user_id));
      users.add(String(r.user_id));
    }
  }
  const all = [...ids].sort();
  if (!(await anyTrace(read, projectId, all))) return undefined;
  return { actor_id: actor, ids: all, user_ids: [...users].sort() };
}

/** Whether any stored row names one of `ids`. */
async function anyTrace(read: Read, projectId: number, ids: readonly string[]): Promise<boolean> {
  const w = new WhereBuilder();
  const p = w.bind(projectId);
  const rows = await read(
    `SELECT EXISTS (SELECT 1 FROM identity_links WHERE project_id = ${p} AND (${inIds(w, 'distinct_id', ids)} OR ${inIds(w, 'actor_id', ids)}))
         OR EXISTS (SELECT 1 FROM events WHERE project_id = ${p} AND (${inIds(w, 'distinct_id', ids)} OR ${inIds(w, 'anonymous_id', ids)} OR ${inIds(w, 'user_id', ids)}))
         OR EXISTS (SELECT 1 FROM replay_chunks WHERE project_id = ${p} AND ${inIds(w, 'anonymous_id', ids)})
         OR EXISTS (SELECT 1 FROM actor_traits WHERE project_id = ${p} AND ${inIds(w, 'user_id', ids)}) AS found`,
    w.build().params,
  );
  return rows[0]?.found === true;
}

/** The condition on events `e` naming one of the person's ids. */
export function personEvents(w: WhereBuilder, projectId: number, ids: readonly string[], row = 'e'): string {
  return `${row}.project_id = ${w.bind(projectId)} AND (${inIds(w, `${row}.distinct_id`, ids)} OR ${inIds(w, `${row}.anonymous_id`, ids)} OR ${inIds(w, `${row}.user_id`, ids)})`;
}

// Who a person is: from any of their ids (a distinct id, user id or anonymous id), the actor it
// resolves to and every id of that actor: the ids linked to it (identify, alias), and the anonymous
// and user ids sent together with those on the same events. A person's rows anywhere are the rows
// that name one of these ids. Reads go through a `Read`, so the deletion job can resolve on the
// writer connection inside its transaction.

import type { Row, Statement } from '../engine/engine.js';
import type { FeatureStatements } from '../engine/statements.js';

export type Read = (statement: Statement) => Promise<Row[]>;

/** Engines answer a flag as a boolean or as 1. */
const flag = (v: unknown) => v === true || v === 1;

export interface PersonIds {
  /** The actor the key resolves to (the key itself when unlinked). */
  actor_id: string;
  /** Every id of the person, sorted. */
  ids: string[];
  /** Those the person was identified by (a user id of their events, or the actor of a link). */
  user_ids: string[];
}

/** The person `key` names in the project; `undefined` when no event, link, trait or recording names any of their ids. */
export async function resolvePerson(sql: FeatureStatements['persons'], read: Read, projectId: number, key: string): Promise<PersonIds | undefined> {
  const linked = await read(sql.linkedIdsSql(projectId, key));
  const actor = String(linked.find((r) => flag(r.is_actor))!.id);
  const ids = new Set(linked.map((r) => String(r.id)));
  const users = new Set<string>(linked.some((r) => flag(r.linked_to)) ? [actor] : []);
  for (const r of await read(sql.idsSeenWithSql(projectId, [...ids]))) {
    if (r.anonymous_id !== null) ids.add(String(r.anonymous_id));
    if (r.user_id !== null) {
      ids.add(String(r.user_id));
      users.add(String(r.user_id));
    }
  }
  const all = [...ids].sort();
  const [trace] = await read(sql.anyTraceSql(projectId, all));
  if (!flag(trace?.found)) return undefined;
  return { actor_id: actor, ids: all, user_ids: [...users].sort() };
}

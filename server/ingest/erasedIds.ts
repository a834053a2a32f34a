// The ids of deleted persons, refused at ingest for REFUSAL_DAYS after the deletion was asked for:
// a tracker still running in the person's browser must not bring them back. Only a keyed hash of
// each id is kept. A server key re-sending an id with `"consent": true` lifts its refusal (the
// person agreed again); ingestion asks here (erasedPersons.ts) before it stores anything; the deletion job (server/persons) writes the refusals.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { hashToken } from '../ground/tokenHash.js';

export const REFUSAL_DAYS = 30;
const DAY_MS = 86_400_000;
const HASH_KIND = 'erased-id';

export const ERASED_CODE = 'person_erased';

/** The refusal's message for one id, with the day it ends. */
export function erasedMessage(until: string): string {
  return `the data of this person was deleted on request; their ids are refused until ${until.slice(0, 10)} unless a server key sends them with "consent": true`;
}

const hashOf = (services: Services, projectId: number, id: string) => hashToken(services, HASH_KIND, `${projectId}\u0000${id}`);

/** Refuses `ids` of the project from `now` for REFUSAL_DAYS (a later deletion extends it), in the caller's transaction. */
export function refuseIds(services: Services, meta: MetaDb, projectId: number, ids: readonly string[], now: Date): void {
  const until = new Date(now.getTime() + REFUSAL_DAYS * DAY_MS).toISOString();
  const put = meta.prepare(
    `INSERT INTO erased_ids (project_id, id_hash, refused_until) VALUES (?, ?, ?)
     ON CONFLICT (project_id, id_hash) DO UPDATE SET refused_until = max(refused_until, excluded.refused_until)`,
  );
  for (const id of ids) put.run(projectId, hashOf(services, projectId, id), until);
}

/**
 * Which of `ids` are refused now, with the time their refusal ends. Nothing is read for a project
 * that refuses no id, the common case.
 */
export function refusedAmong(services: Services, projectId: number, ids: Iterable<string>): Map<string, string> {
  const refused = new Map<string, string>();
  const now = services.clock.now().toISOString();
  const any = services.meta.prepare('SELECT 1 FROM erased_ids WHERE project_id = ? AND refused_until > ? LIMIT 1').get(projectId, now);
  if (!any) return refused;
  const one = services.meta.prepare('SELECT refused_until FROM erased_ids WHERE project_id = ? AND id_hash = ? AND refused_until > ?');
  for (const id of new Set(ids)) {
    const row = one.get(projectId, hashOf(services, projectId, id), now) as { refused_until: string } | undefined;
    if (row) refused.set(id, row.refused_until);
  }
  return refused;
}

/** Lifts the refusal of `ids` (a server key sent them with consent). */
export function liftRefusal(services: Services, projectId: number, ids: Iterable<string>): void {
  const lift = services.meta.prepare('DELETE FROM erased_ids WHERE project_id = ? AND id_hash = ?');
  for (const id of new Set(ids)) lift.run(projectId, hashOf(services, projectId, id));
}

/** Refusals that ended are forgotten (called as deletions are asked for). */
export function forgetEndedRefusals(meta: MetaDb, now: Date): void {
  meta.prepare('DELETE FROM erased_ids WHERE refused_until <= ?').run(now.toISOString());
}

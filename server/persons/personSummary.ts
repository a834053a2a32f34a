// GET /projects/{id}/persons/{key}: a person's ids, when they were first and last seen, how many
// events they sent (and which most), their sessions and recordings. Who the person is comes from
// personIds.ts; the counts are over every event naming one of their ids.

import type { Services } from '../http/services.js';
import { NotFoundError } from '../ground/errors.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';
import { resolvePerson, type PersonIds, type Read } from './personIds.js';

/** Events named in `top_events`. */
export const TOP_EVENTS = 10;

export interface PersonSummary {
  actor_id: string;
  distinct_ids: string[];
  user_ids: string[];
  first_seen: string | null;
  last_seen: string | null;
  /** Events they sent (labeled events derived from them not included). */
  events: number;
  /** Events labeling rules derived from theirs. */
  labeled_events: number;
  top_events: Array<{ event: string; count: number }>;
  sessions: number;
  recordings: number;
}

/** Reads of the events domain, under its time limit. */
export const timedRead =
  (services: Services): Read =>
  (statement) =>
    readEvents(services, statement);

/** The person `key` names, or 404. */
export async function findPerson(services: Services, projectId: number, key: string): Promise<PersonIds> {
  const person = await resolvePerson(statementsOf(services.events).persons, timedRead(services), projectId, key);
  if (!person) throw new NotFoundError('person not found');
  return person;
}

export async function personSummary(services: Services, projectId: number, key: string): Promise<PersonSummary> {
  const person = await findPerson(services, projectId, key);
  const sql = statementsOf(services.events).persons;
  const [totals] = await readEvents(services, sql.personTotalsSql(projectId, person.ids));
  const top = await readEvents(services, sql.topEventsSql(projectId, person.ids, TOP_EVENTS));
  const [recorded] = await readEvents(services, sql.recordingsCountSql(projectId, person.ids));
  const iso = (ms: unknown) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());
  return {
    actor_id: person.actor_id,
    distinct_ids: person.ids,
    user_ids: person.user_ids,
    first_seen: iso(totals?.first_ms),
    last_seen: iso(totals?.last_ms),
    events: Number(totals?.events ?? 0),
    labeled_events: Number(totals?.labeled ?? 0),
    top_events: top.map((t) => ({ event: String(t.event), count: Number(t.n) })),
    sessions: Number(totals?.sessions ?? 0),
    recordings: Number(recorded?.n ?? 0),
  };
}

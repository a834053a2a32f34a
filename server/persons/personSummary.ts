// GET /projects/{id}/persons/{key}: a person's ids, when they were first and last seen, how many
// events they sent (and which most), their sessions and recordings. Who the person is comes from
// personIds.ts; the counts are over every event naming one of their ids.

import type { Services } from '../services.js';
import { NotFoundError } from '../http/errors.js';
import { WhereBuilder } from '../events/eventsWhere.js';
import { readEvents } from '../events/timeLimit.js';
import { inIds, personEvents, resolvePerson, type PersonIds, type Read } from './personIds.js';

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
export const timedRead = (services: Services): Read => (sql, params) => readEvents(services, sql, params);

/** The person `key` names, or 404. */
export async function findPerson(services: Services, projectId: number, key: string): Promise<PersonIds> {
  const person = await resolvePerson(timedRead(services), projectId, key);
  if (!person) throw new NotFoundError('person not found');
  return person;
}

export async function personSummary(services: Services, projectId: number, key: string): Promise<PersonSummary> {
  const person = await findPerson(services, projectId, key);
  const w = new WhereBuilder();
  const where = personEvents(w, projectId, person.ids);
  const [totals] = await readEvents(
    services,
    `SELECT count(*) FILTER (WHERE e.rule_id IS NULL) AS events, count(*) FILTER (WHERE e.rule_id IS NOT NULL) AS labeled,
            epoch_ms(min(e.ts) FILTER (WHERE e.rule_id IS NULL)) AS first_ms, epoch_ms(max(e.ts) FILTER (WHERE e.rule_id IS NULL)) AS last_ms,
            count(DISTINCT e.session_id) AS sessions
       FROM events e WHERE ${where}`,
    w.build().params,
  );
  const top = await readEvents(
    services,
    `SELECT e.event, count(*) AS n FROM events e WHERE ${where} GROUP BY e.event ORDER BY n DESC, e.event LIMIT ${TOP_EVENTS}`,
    w.build().params,
  );
  const r = new WhereBuilder();
  const [recorded] = await readEvents(
    services,
    `SELECT count(DISTINCT session_id) AS n FROM replay_chunks WHERE project_id = ${r.bind(projectId)} AND ${inIds(r, 'anonymous_id', person.ids)}`,
    r.build().params,
  );
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

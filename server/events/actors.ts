// Reads of identity_links for the events domain: the distinct ids behind an actor (the actor_id
// filter) and the actors of a handful of distinct ids (live stream messages). An event's actor is
// COALESCE(link.actor_id, distinct_id); links are flat, so one lookup suffices.

import type { Services } from '../http/services.js';
import { statementsOf } from '../engine/statements.js';
import { readEvents } from './timeLimit.js';

/** The distinct ids whose events resolve to `actorId`: those linked to it, and itself unless linked elsewhere. */
export async function distinctIdsOfActor(services: Services, projectId: number, actorId: string): Promise<string[]> {
  const rows = await readEvents(services, statementsOf(services.events).events.distinctIdsOfActorSql(projectId, actorId));
  return [...new Set(rows.map((r) => String(r.distinct_id)))];
}

/** The actor of each distinct id (its own id when unlinked). */
export async function actorsOf(services: Services, projectId: number, distinctIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(distinctIds)];
  const actors = new Map(ids.map((id) => [id, id]));
  if (ids.length === 0) return actors;
  const rows = await readEvents(services, statementsOf(services.events).events.actorsOfSql(projectId, ids));
  for (const r of rows) actors.set(String(r.distinct_id), String(r.actor_id));
  return actors;
}

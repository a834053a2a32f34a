// Reads of identity_links for the events domain: the distinct ids behind an actor (the actor_id
// filter) and the actors of a handful of distinct ids (live stream messages). An event's actor is
// COALESCE(link.actor_id, distinct_id); links are flat, so one lookup suffices.

import type { Services } from '../http/services.js';
import { WhereBuilder } from './eventsWhere.js';
import { readEvents } from './timeLimit.js';

/** The distinct ids whose events resolve to `actorId`: those linked to it, and itself unless linked elsewhere. */
export async function distinctIdsOfActor(services: Services, projectId: number, actorId: string): Promise<string[]> {
  const rows = await readEvents(
    services,
    `SELECT distinct_id FROM identity_links WHERE project_id = $1 AND actor_id = $2
     UNION ALL
     SELECT $2 WHERE NOT EXISTS (SELECT 1 FROM identity_links WHERE project_id = $1 AND distinct_id = $2)`,
    [projectId, actorId],
  );
  return [...new Set(rows.map((r) => String(r.distinct_id)))];
}

/** The actor of each distinct id (its own id when unlinked). */
export async function actorsOf(services: Services, projectId: number, distinctIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(distinctIds)];
  const actors = new Map(ids.map((id) => [id, id]));
  if (ids.length === 0) return actors;
  const w = new WhereBuilder();
  const where = `project_id = ${w.bind(projectId)} AND distinct_id IN (${ids.map((id) => w.bind(id)).join(', ')})`;
  const rows = await readEvents(services, `SELECT distinct_id, actor_id FROM identity_links WHERE ${where}`, w.build().params);
  for (const r of rows) actors.set(String(r.distinct_id), String(r.actor_id));
  return actors;
}

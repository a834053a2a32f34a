// Identity resolution in SQL: the actor of an event or rollup row is its identity link's actor when
// one exists, else its own distinct id (links are kept transitively resolved by ingestion).

/** How a scan gives each actor: by key (counting) or by id (listing). */
export type ActorForm = 'key' | 'id';

/**
 * The resolved actor of the row `row` (an event, or a rollup row), joined to its identity link
 * `l` (links are kept transitively resolved by ingestion). Queries group, sort and join actors by
 * their 64-bit key, far cheaper than the text; only listings need the id.
 */
export function actorOf(form: ActorForm = 'key', row = 'e'): string {
  return form === 'key' ? `COALESCE(l.actor_key, ${row}.distinct_key)` : `COALESCE(l.actor_id, ${row}.distinct_id)`;
}

/** The resolved actor of the event `e` as its key. */
export const ACTOR = actorOf();

/** The identity link `l` of the row `row`, joined by key. */
export const identityJoin = (row: string) => `LEFT JOIN identity_links l ON l.project_id = ${row}.project_id AND l.distinct_key = ${row}.distinct_key`;

/** The events `e` with their identity links `l`. */
export const EVENTS_WITH_ACTORS = `events e ${identityJoin('e')}`;

// The regular events list: newest first by time of receipt (or by event time), ties broken by uuid,
// one page after an optional keyset position. The route decodes and encodes cursors; this module only reads.

import type { Services } from '../http/services.js';
import type { EventFilters, EventOrder } from './eventsQuery.js';
import type { EventPosition } from './eventsWhere.js';
import { distinctIdsOfActor } from './actors.js';
import { readEvents } from './timeLimit.js';
import { itemFromRow, type EventItem } from './eventItem.js';
import { statementsOf } from '../engine/statements.js';

export interface EventsPage {
  items: EventItem[];
  /** Where the next page starts, when there is one. */
  next?: EventPosition;
}

export async function listEvents(services: Services, projectId: number, filters: EventFilters, order: EventOrder, limit: number, after?: EventPosition): Promise<EventsPage> {
  const distinctIds = filters.actorId === undefined ? undefined : await distinctIdsOfActor(services, projectId, filters.actorId);
  const rows = await readEvents(services, statementsOf(services.events).events.listEventsSql(projectId, filters, order, limit + 1, after, distinctIds));
  const items = rows.slice(0, limit).map(itemFromRow);
  const last = rows[limit - 1];
  return { items, next: rows.length > limit && last ? { at: String(last.position_at), uuid: String(last.uuid) } : undefined };
}

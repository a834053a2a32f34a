// The regular events list: newest first by time of receipt (or by event time), ties broken by uuid,
// one page after an optional keyset position. The route decodes and encodes cursors; this module only reads.

import type { Services } from '../http/services.js';
import type { EventFilters, EventOrder } from './eventsQuery.js';
import { afterPosition, eventFilterClauses, ORDER_COLUMNS, WhereBuilder, type EventPosition, type SqlWhere } from './eventsWhere.js';
import { distinctIdsOfActor } from './actors.js';
import { readEvents } from './timeLimit.js';
import { ITEM_COLUMNS, itemFromRow, type EventItem } from './eventItem.js';

export interface EventsPage {
  items: EventItem[];
  /** Where the next page starts, when there is one. */
  next?: EventPosition;
}

/**
 * The page is chosen from bare event rows first and only its rows are then joined to identity links
 * and formatted, so DuckDB's top-N reads the wide columns of `limit` rows, not of every candidate.
 */
export function buildListSql(where: SqlWhere, limitPlaceholder: string, order: EventOrder): string {
  const column = ORDER_COLUMNS[order];
  return `WITH page AS (
      SELECT e.*, epoch_us(e.${column})::VARCHAR AS position_at FROM events e WHERE ${where.sql}
       ORDER BY e.${column} DESC, e.uuid DESC LIMIT ${limitPlaceholder})
    SELECT ${ITEM_COLUMNS}, page.position_at
      FROM page LEFT JOIN identity_links l ON l.project_id = page.project_id AND l.distinct_id = page.distinct_id
     ORDER BY page.${column} DESC, page.uuid DESC`;
}

export async function listEvents(services: Services, projectId: number, filters: EventFilters, order: EventOrder, limit: number, after?: EventPosition): Promise<EventsPage> {
  const distinctIds = filters.actorId === undefined ? undefined : await distinctIdsOfActor(services, projectId, filters.actorId);
  const w = eventFilterClauses(new WhereBuilder(), projectId, filters, distinctIds);
  if (after) afterPosition(w, after, ORDER_COLUMNS[order]);
  const limitPlaceholder = w.bind(limit + 1);
  const where = w.build();
  const rows = await readEvents(services, buildListSql(where, limitPlaceholder, order), where.params);
  const items = rows.slice(0, limit).map(itemFromRow);
  const last = rows[limit - 1];
  return { items, next: rows.length > limit && last ? { at: String(last.position_at), uuid: String(last.uuid) } : undefined };
}

// One page of GET /projects/{id}/events in either view: checks the query, opens the cursor
// against the scope of this request, reads the page and signs where the next one starts.

import type { Services } from '../http/services.js';
import { ValidationError } from '../ground/errors.js';
import { cursorScope, parseEventsQuery } from './eventsQuery.js';
import { decodeCursor, encodeCursor } from '../http/cursor.js';
import { isEventPosition } from './eventsWhere.js';
import { listEvents } from './listEvents.js';
import { doctorRecords, isDoctorPosition, type DoctorRecord } from './doctorRecords.js';
import type { EventItem } from './eventItem.js';

export interface EventsPageResponse {
  items: EventItem[] | DoctorRecord[];
  next_cursor: string | null;
}

export async function eventsPage(services: Services, projectId: number, rawQuery: Record<string, unknown>): Promise<EventsPageResponse> {
  const q = parseEventsQuery(rawQuery);
  const scope = cursorScope(projectId, q);
  const page =
    q.view === 'doctor'
      ? await doctorRecords(services, projectId, q.filters, q.limit, openCursor(services, scope, q.cursor, isDoctorPosition))
      : await listEvents(services, projectId, q.filters, q.order, q.limit, openCursor(services, scope, q.cursor, isEventPosition));
  return { items: page.items, next_cursor: page.next ? encodeCursor(services, scope, page.next) : null };
}

function openCursor<T>(services: Services, scope: unknown, token: string | undefined, isPosition: (v: unknown) => v is T): T | undefined {
  if (token === undefined) return undefined;
  const position = decodeCursor(services, scope, token);
  // A correctly signed cursor of this scope always holds a position of its view; this guards a format change.
  if (!isPosition(position)) throw new ValidationError('cursor is not valid for this query', 'cursor');
  return position;
}

// Stored events in a table: when (received, or when it happened), name, person and where each came
// from; a button opens an event's full JSON below its row.

import { useState } from 'preact/hooks';
import { formatDateTime } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { recordingHref, WatchLink } from '../replay/WatchLink';
import { personHref } from '../persons/PersonLink';

export interface StoredEvent {
  uuid: string;
  event: string;
  ts: string;
  received_at?: string;
  actor_id?: string | null;
  user_id?: string | null;
  anonymous_id?: string | null;
  url?: string | null;
  source?: string | null;
  session_id?: string | null;
  [key: string]: unknown;
}

/** Which time the first column shows: the time of receipt or the event's own time (ts). */
export type EventTime = 'received' | 'event_time';

const TIME_HEADERS: Record<EventTime, string> = { received: 'Received', event_time: 'Event time' };

/** `projectId`: rows offer to watch the recording of their session; `personsOf`: the person opens their page. */
export function EventRow({ event, time, projectId, personsOf }: { event: StoredEvent; time: EventTime; projectId?: number; personsOf?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr class="event-row" data-uuid={event.uuid}>
        <td>{formatDateTime(time === 'received' ? event.received_at : event.ts)}</td>
        <td>
          <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {event.event}
          </button>
        </td>
        <td>
          {personsOf !== undefined && event.actor_id ? (
            <a href={personHref(personsOf, event.actor_id)} aria-label={`Person ${event.actor_id}`}>
              {event.user_id ?? event.actor_id}
            </a>
          ) : (
            (event.user_id ?? event.actor_id ?? event.anonymous_id ?? '—')
          )}
        </td>
        <td class="truncate">{event.url ?? event.source ?? '—'}</td>
        {projectId !== undefined && (
          <td>
            {event.session_id && event.source === 'browser' && <WatchLink href={recordingHref(projectId, event.session_id)} label={`Watch the recording of the session of this ${event.event}`} />}
          </td>
        )}
      </tr>
      {open && (
        <tr class="event-json">
          <td colSpan={projectId === undefined ? 4 : 5}>
            <pre tabIndex={0}>{JSON.stringify(event, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}

export function EventsTable({ events, time, testId, projectId }: { events: StoredEvent[]; time: EventTime; testId?: string; projectId?: number }) {
  const watch = projectId !== undefined && events.some((e) => e.session_id && e.source === 'browser');
  return (
    <Table label="Events" class="events-table" testId={testId}>
      <TableHead columns={[TIME_HEADERS[time], 'Event', 'Person', 'URL or source', ...(watch ? ['Recording'] : [])]} />
      <tbody>
        {events.map((event) => (
          <EventRow key={event.uuid} event={event} time={time} projectId={watch ? projectId : undefined} personsOf={projectId} />
        ))}
      </tbody>
    </Table>
  );
}

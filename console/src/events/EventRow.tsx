// Stored events in a table: name, person, where each came from and when; a button opens an
// event's full JSON below its row.

import { useState } from 'preact/hooks';
import { formatDateTime } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

export interface StoredEvent {
  uuid: string;
  event: string;
  ts: string;
  actor_id?: string | null;
  user_id?: string | null;
  anonymous_id?: string | null;
  url?: string | null;
  source?: string | null;
  [key: string]: unknown;
}

export function EventRow({ event }: { event: StoredEvent }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr class="event-row" data-uuid={event.uuid}>
        <td>
          <button type="button" class="link" aria-expanded={open} onClick={() => setOpen(!open)}>
            {event.event}
          </button>
        </td>
        <td>{event.user_id ?? event.actor_id ?? event.anonymous_id ?? '—'}</td>
        <td class="truncate">{event.url ?? event.source ?? '—'}</td>
        <td>{formatDateTime(event.ts)}</td>
      </tr>
      {open && (
        <tr class="event-json">
          <td colSpan={4}>
            <pre tabIndex={0}>{JSON.stringify(event, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}

export function EventsTable({ events, testId }: { events: StoredEvent[]; testId?: string }) {
  return (
    <Table label="Events" class="events-table" testId={testId}>
      <TableHead columns={['Event', 'Person', 'URL or source', 'Time']} />
      <tbody>
        {events.map((event) => (
          <EventRow key={event.uuid} event={event} />
        ))}
      </tbody>
    </Table>
  );
}

// The event and property catalogs: every event name the project has seen, how often and its first
// and last event time (when things happened, not when they arrived); choosing one lists the
// property keys its events carry.

import { useRoute } from 'preact-iso';
import { api, ok } from '../api/client';
import { useUrlState } from '../ui/urlState';
import { useAsync } from '../ui/useAsync';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { formatDateTime, formatNumber } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

export function Catalog() {
  const projectId = Number(useRoute().params.projectId);
  const url = useUrlState();
  const chosen = url.get('event');
  const path = { path: { id: projectId } };
  const events = useAsync(() => ok(api.GET('/api/v1/projects/{id}/catalog/events', { params: path })), [projectId]);
  const props = useAsync(() => ok(api.GET('/api/v1/projects/{id}/catalog/props', { params: { ...path, query: chosen ? { event: chosen } : {} } })), [projectId, chosen]);
  return (
    <section aria-labelledby="catalog-title">
      <div class="page-header">
        <h1 id="catalog-title">Catalog</h1>
      </div>
      <div class="two-columns">
        <div>
          <h2>Events</h2>
          <ErrorNote error={events.error} />
          {events.loading && !events.data ? (
            <Loading />
          ) : events.data && events.data.items.length > 0 ? (
            <Table label="Events" testId="event-catalog">
              <TableHead columns={['Event', 'Count', 'First event time', 'Last event time']} />
              <tbody>
                {events.data.items.map((e) => (
                  <tr aria-selected={e.event === chosen}>
                    <td>
                      <button type="button" class="link" onClick={() => url.set({ event: e.event === chosen ? undefined : e.event })}>
                        {e.event}
                      </button>
                    </td>
                    <td>{formatNumber(e.count)}</td>
                    <td>{formatDateTime(e.first_event_time)}</td>
                    <td>{formatDateTime(e.last_event_time)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            !events.error && <Empty title="No events yet" />
          )}
        </div>
        <div>
          <h2>{chosen ? `Properties of ${chosen}` : 'Properties of all events'}</h2>
          <ErrorNote error={props.error} />
          {props.loading && !props.data ? (
            <Loading />
          ) : props.data && props.data.items.length > 0 ? (
            <Table label="Properties" testId="property-catalog">
              <TableHead columns={['Key', 'Seen']} />
              <tbody>
                {props.data.items.map((p) => (
                  <tr>
                    <td>
                      <code>props.{p.key}</code>
                    </td>
                    <td>{formatNumber(p.seen)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          ) : (
            !props.error && <Empty title="No properties" />
          )}
        </div>
      </div>
    </section>
  );
}

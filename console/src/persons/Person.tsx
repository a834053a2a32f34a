// A person's page, opened from every list of people (funnel drop-offs, retention cells, the events
// explorer, recordings): their ids, first and last seen, counts and top events, their recent
// events and recordings, and for admins the download of their data and their deletion.

import { useRoute } from 'preact-iso';
import { api, ok, type Schemas } from '../api/client';
import { useSession } from '../app/session';
import { formatDateTime, formatNumber } from '../ui/format';
import { Gated } from '../ui/Gated';
import { ErrorNote, Loading } from '../ui/states';
import { Table } from '../ui/Table';
import { TableHead } from '../ui/TableHead';
import { useAsync } from '../ui/useAsync';
import { EventsTable, type StoredEvent } from '../events/EventRow';
import { recordingHref } from '../replay/WatchLink';
import { PersonActions } from './PersonActions';
import './persons.css';

type Person = Schemas['Person'];

/** Recent events and recordings shown on the page. */
const RECENT = 20;

/** The key as the address carries it, encoded; a key that is not valid encoding is taken as it stands. */
function decodedKey(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function PersonPage() {
  const { params } = useRoute();
  const projectId = Number(params.projectId);
  const key = decodedKey(params.key ?? '');
  const role = useSession().me?.org.role;
  const isAdmin = role === 'admin' || role === 'owner';
  return (
    <section aria-labelledby="person-title">
      <div class="page-header">
        <h1 id="person-title">
          Person <code>{key}</code>
        </h1>
      </div>
      <Gated feature="actor_drilldown">
        <PersonDetail projectId={projectId} personKey={key} />
      </Gated>
      {isAdmin && <PersonActions projectId={projectId} personKey={key} />}
    </section>
  );
}

function PersonDetail({ projectId, personKey }: { projectId: number; personKey: string }) {
  const person = useAsync(() => ok(api.GET('/api/v1/projects/{id}/persons/{key}', { params: { path: { id: projectId, key: personKey } } })), [projectId, personKey]);
  if (person.loading && !person.data) return <Loading />;
  if (person.error || !person.data) return <ErrorNote error={person.error} />;
  return (
    <>
      <Summary person={person.data} />
      <RecentEvents projectId={projectId} actorId={person.data.actor_id} />
      <PersonRecordings projectId={projectId} actorId={person.data.actor_id} />
    </>
  );
}

function Summary({ person }: { person: Person }) {
  const figures: Array<[string, string, string]> = [
    ['Events', formatNumber(person.events), 'events'],
    ['Labeled events', formatNumber(person.labeled_events), 'labeled-events'],
    ['Sessions', formatNumber(person.sessions), 'sessions'],
    ['Recordings', formatNumber(person.recordings), 'recordings'],
  ];
  return (
    <div class="card" data-testid="person-summary">
      <h2>Who</h2>
      <dl class="person-facts">
        <dt>Known as</dt>
        <dd data-testid="person-actor">{person.actor_id}</dd>
        <dt>Ids</dt>
        <dd>
          <ul class="person-ids" data-testid="person-ids">
            {person.distinct_ids.map((id) => (
              <li>
                <code>{id}</code>
                {person.user_ids.includes(id) && <span class="badge">user id</span>}
              </li>
            ))}
          </ul>
        </dd>
        <dt>First seen</dt>
        <dd data-testid="person-first-seen">{person.first_seen ? <time dateTime={person.first_seen}>{formatDateTime(person.first_seen)}</time> : '—'}</dd>
        <dt>Last seen</dt>
        <dd data-testid="person-last-seen">{person.last_seen ? <time dateTime={person.last_seen}>{formatDateTime(person.last_seen)}</time> : '—'}</dd>
        {figures.map(([label, value, id]) => (
          <>
            <dt>{label}</dt>
            <dd data-testid={`person-count-${id}`}>{value}</dd>
          </>
        ))}
      </dl>
      {person.top_events.length > 0 && (
        <Table label="Their most frequent events" testId="person-top-events">
          <TableHead columns={['Event', 'Count']} />
          <tbody>
            {person.top_events.map((e) => (
              <tr>
                <td>{e.event}</td>
                <td class="num">{formatNumber(e.count)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

function RecentEvents({ projectId, actorId }: { projectId: number; actorId: string }) {
  const events = useAsync(() => ok(api.GET('/api/v1/projects/{id}/events', { params: { path: { id: projectId }, query: { actor_id: actorId, limit: RECENT } } })), [projectId, actorId]);
  return (
    <div class="card">
      <h2>Recent events</h2>
      <ErrorNote error={events.error} />
      {events.loading && !events.data ? (
        <Loading />
      ) : events.data && events.data.items.length > 0 ? (
        <EventsTable events={events.data.items as StoredEvent[]} time="received" testId="person-recent-events" projectId={projectId} />
      ) : (
        <p class="muted">No events.</p>
      )}
    </div>
  );
}

function PersonRecordings({ projectId, actorId }: { projectId: number; actorId: string }) {
  const recordings = useAsync(() => ok(api.GET('/api/v1/projects/{id}/recordings', { params: { path: { id: projectId }, query: { person: actorId, limit: RECENT } } })), [projectId, actorId]);
  return (
    <div class="card">
      <h2>Recordings</h2>
      <ErrorNote error={recordings.error} />
      {recordings.loading && !recordings.data ? (
        <Loading />
      ) : recordings.data && recordings.data.items.length > 0 ? (
        <ul class="actor-list" data-testid="person-recordings">
          {recordings.data.items.map((r) => (
            <li>
              {formatDateTime(r.started_at)} · {formatNumber(r.page_views)} pages{' '}
              <a class="watch-link" href={recordingHref(projectId, r.session_id)} aria-label={`Watch the recording from ${formatDateTime(r.started_at)}`}>
                Watch
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No recordings.</p>
      )}
    </div>
  );
}

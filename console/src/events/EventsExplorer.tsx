// The events explorer: every filter of the events list, newest first by time of receipt or by event
// time with cursor paging, each event's full JSON; and the Integration Doctor view of what was
// accepted, flagged or refused. Filters and the order live in the URL like an insight's parameters.

import { useRoute } from 'preact-iso';
import { api, ok, type Schemas } from '../api/client';
import { useUrlState } from '../ui/urlState';
import { useFilterDraft } from '../ui/useFilterDraft';
import { Loading } from '../ui/states';
import { LoadMore, usePaged } from '../ui/usePaged';
import { formatDateTime } from '../ui/format';
import { EventsTable, type EventTime, type StoredEvent } from './EventRow';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { recordingsHref, WatchLink } from '../replay/WatchLink';
import { personHref } from '../persons/PersonLink';
import { toIso, toLocal } from '../ui/localTime';

type Doctor = Schemas['DoctorRecord'];
type Query = NonNullable<import('../api/schema').operations['listEvents']['parameters']['query']>;

const TEXT_FILTERS: Array<[keyof Query, string]> = [
  ['user_id', 'User id'],
  ['anonymous_id', 'Anonymous id'],
  ['actor_id', 'Person (actor id)'],
  ['release', 'Release'],
  ['sdk_name', 'Client (SDK)'],
];

const DAY_MS = 86_400_000;

export function EventsExplorer() {
  const projectId = Number(useRoute().params.projectId);
  const url = useUrlState();
  const doctor = url.get('view') === 'doctor';
  // The doctor is ordered by receipt only; the list by receipt unless event time is chosen.
  const order: EventTime = !doctor && url.get('order') === 'event_time' ? 'event_time' : 'received';
  // The doctor needs a range; by default the last day.
  const to = url.get('to', doctor ? new Date(Math.ceil(Date.now() / 60_000) * 60_000).toISOString() : '');
  const from = url.get('from', doctor ? new Date(Date.parse(to) - DAY_MS).toISOString() : '');
  const query: Query = {
    ...(doctor ? { view: 'doctor' as const } : {}),
    ...(order === 'event_time' ? { order } : {}),
    ...(url.list('event').length ? { event: url.list('event') } : {}),
    ...Object.fromEntries(
      TEXT_FILTERS.filter(([k]) => !doctor || k === 'sdk_name')
        .map(([k]) => [k, url.get(k)])
        .filter(([, v]) => v),
    ),
    ...(url.get('source') ? { source: url.get('source') as Query['source'] } : {}),
    ...(url.get('invalid_only') === 'true' ? { invalid_only: true } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    limit: 50,
  };
  const key = JSON.stringify(query);
  // A new query starts from an empty list: rows of another view may be of the other kind.
  const paged = usePaged((cursor) => ok(api.GET('/api/v1/projects/{id}/events', { params: { path: { id: projectId }, query: { ...query, ...(cursor ? { cursor } : {}) } } })), [projectId, key]);
  const items = paged.items as Array<StoredEvent | Doctor>;

  return (
    <section aria-labelledby="explorer-title">
      <div class="page-header">
        <h1 id="explorer-title">{doctor ? 'Integration Doctor' : 'Events'}</h1>
        <div class="range" role="group" aria-label="View">
          <button type="button" class={`chip${doctor ? '' : ' active'}`} aria-pressed={!doctor} onClick={() => url.set({ view: undefined, from: undefined, to: undefined })}>
            Events
          </button>
          <button
            type="button"
            class={`chip${doctor ? ' active' : ''}`}
            aria-pressed={doctor}
            onClick={() => url.set({ view: 'doctor', order: undefined, user_id: undefined, anonymous_id: undefined, actor_id: undefined, release: undefined })}
          >
            Doctor
          </button>
        </div>
        {!doctor && <OrderSwitch order={order} onOrder={(next) => url.set({ order: next === 'received' ? undefined : next })} />}
      </div>
      <p class="muted">
        {doctor
          ? 'Everything clients sent in the range: events stored clean, stored with warnings, and attempts refused with the reason.'
          : `Stored events, ${order === 'received' ? 'newest received first' : 'latest event time first'}. Identities resolve through identify and alias links.`}
      </p>
      {!doctor && url.get('actor_id') && (
        <p class="result-meta">
          <a href={personHref(projectId, url.get('actor_id'))}>This person's page</a>{' '}
          <WatchLink href={recordingsHref(projectId, { person: url.get('actor_id') })} label="Watch this person's recordings" text="Watch this person's recordings" />
        </p>
      )}
      <Filters doctor={doctor} url={url} from={from} to={to} />
      {paged.loading && items.length === 0 ? (
        <Loading />
      ) : items.length === 0 && !paged.error ? (
        <div class="state empty">
          <strong>Nothing matches</strong>
          <div>Loosen the filters{doctor ? ' or widen the range (at most 31 days)' : ''}.</div>
        </div>
      ) : doctor ? (
        <DoctorTable records={items as Doctor[]} />
      ) : (
        <EventsTable events={items as StoredEvent[]} time={order} testId="events-table" projectId={projectId} />
      )}
      <LoadMore paged={paged} />
    </section>
  );
}

/** Newest received first (pages never shift while events arrive) or newest event time first. */
function OrderSwitch({ order, onOrder }: { order: EventTime; onOrder(order: EventTime): void }) {
  const choices: Array<[EventTime, string]> = [
    ['received', 'Received'],
    ['event_time', 'Event time'],
  ];
  return (
    <div class="range" role="group" aria-label="Order by">
      {choices.map(([value, label]) => (
        <button type="button" class={`chip${order === value ? ' active' : ''}`} aria-pressed={order === value} onClick={() => onOrder(value)}>
          {label}
        </button>
      ))}
    </div>
  );
}

function Filters({ doctor, url, from, to }: { doctor: boolean; url: ReturnType<typeof useUrlState>; from: string; to: string }) {
  // Event names are typed comma separated and kept in the URL as a list.
  const {
    draft,
    value,
    put,
    onInput: set,
    apply,
  } = useFilterDraft(url, (d) =>
    Object.fromEntries(
      Object.entries(d).map(([k, v]) => [
        k,
        k === 'event'
          ? v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : v,
      ]),
    ),
  );
  return (
    <form class="control-bar" onSubmit={apply} aria-label="Filters">
      <div class="control">
        <label class="control-label" for="f-event">
          Event names
        </label>
        <input id="f-event" value={draft.event ?? url.list('event').join(', ')} onInput={set('event')} placeholder={doctor ? 'one name' : 'comma separated'} />
      </div>
      {TEXT_FILTERS.filter(([k]) => !doctor || k === 'sdk_name').map(([k, label]) => (
        <div class="control">
          <label class="control-label" for={`f-${k}`}>
            {label}
          </label>
          <input id={`f-${k}`} value={value(k)} onInput={set(k)} />
        </div>
      ))}
      <div class="control">
        <label class="control-label" for="f-source">
          Source
        </label>
        <select id="f-source" value={value('source')} onChange={set('source')}>
          <option value="">any</option>
          {['browser', 'server', 'import', 'system', 'unknown'].map((s) => (
            <option value={s}>{s}</option>
          ))}
        </select>
      </div>
      <div class="control">
        <label class="control-label" for="f-from">
          Received from
        </label>
        <input id="f-from" type="datetime-local" value={toLocal(draft.from ?? from)} onInput={(e) => put('from', toIso((e.currentTarget as HTMLInputElement).value))} />
      </div>
      <div class="control">
        <label class="control-label" for="f-to">
          Received before
        </label>
        <input id="f-to" type="datetime-local" value={toLocal(draft.to ?? to)} onInput={(e) => put('to', toIso((e.currentTarget as HTMLInputElement).value))} />
      </div>
      <label class="check control">
        <input
          type="checkbox"
          checked={(draft.invalid_only ?? url.get('invalid_only')) === 'true'}
          onChange={(e) => put('invalid_only', (e.currentTarget as HTMLInputElement).checked ? 'true' : '')}
        />
        {doctor ? 'Only problems' : 'Only events stored with warnings'}
      </label>
      <div class="control">
        <button type="submit" class="button primary">
          Apply
        </button>
      </div>
    </form>
  );
}

function DoctorTable({ records }: { records: Doctor[] }) {
  return (
    <Table label="Ingestion records" testId="doctor-table">
      <TableHead columns={['Received', 'Outcome', 'Event', 'Why', 'Client', 'Request']} />
      <tbody>
        {records.map((r) => (
          <tr data-outcome={r.outcome}>
            <td>{formatDateTime(r.received_at)}</td>
            <td>
              <span class={`badge ${r.outcome === 'valid' ? 'active' : 'revoked'}`}>{r.outcome}</span>
            </td>
            <td>{r.event ?? '—'}</td>
            <td>{r.outcome === 'rejected' ? `${r.code ?? ''}${r.message ? `: ${r.message}` : ''}` : r.warnings.join(', ') || '—'}</td>
            <td>{[r.sdk_name, r.sdk_version].filter(Boolean).join(' ') || r.source}</td>
            <td>
              <code>{r.request_id ?? r.uuid ?? ''}</code>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

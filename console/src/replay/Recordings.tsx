// The recordings list: every filter of GET /recordings (person, session, start range, page URL,
// rage or dead clicks, duration, an event), newest first with cursor paging, each row a link to
// its player. Filters live in the URL, so the list can be linked from elsewhere.

import { useRoute } from 'preact-iso';
import { api, ok, type Schemas } from '../api/client';
import { useUrlState, type UrlState } from '../ui/urlState';
import { useFilterDraft } from '../ui/useFilterDraft';
import { Loading } from '../ui/states';
import { LoadMore, usePaged } from '../ui/usePaged';
import { formatDateTime, formatDuration, formatNumber } from '../ui/format';
import { Table } from '../ui/Table';
import { TableHead } from '../ui/TableHead';
import { Gated } from '../ui/Gated';
import { recordingHref } from './WatchLink';
import { PersonLink } from '../persons/PersonLink';
import './replay.css';
import { toIso, toLocal } from '../ui/localTime';

type Query = NonNullable<import('../api/schema').operations['listRecordings']['parameters']['query']>;
type Summary = Schemas['RecordingSummary'];

const TEXT_FILTERS: Array<[string, string]> = [
  ['person', 'Person'],
  ['session', 'Session id'],
  ['url', 'Page URL contains'],
  ['event', 'Has event'],
];
const NUMBER_FILTERS: Array<[string, string]> = [
  ['min_duration', 'At least (seconds)'],
  ['max_duration', 'At most (seconds)'],
];

function queryOf(url: UrlState): Query {
  const q: Record<string, unknown> = { limit: 50 };
  for (const [k] of [...TEXT_FILTERS, ['from'], ['to']]) if (url.get(k!)) q[k!] = url.get(k!);
  for (const [k] of NUMBER_FILTERS) if (url.get(k) !== '') q[k] = Number(url.get(k));
  if (url.get('rage_clicks') === 'true') q.rage_clicks = true;
  if (url.get('dead_clicks') === 'true') q.dead_clicks = true;
  return q as Query;
}

export function Recordings() {
  return (
    <section aria-labelledby="recordings-title">
      <div class="page-header">
        <h1 id="recordings-title">Recordings</h1>
      </div>
      <p class="muted">Sessions the tracker recorded, newest first. What the tracker masked stays masked; the project's privacy mode applies on every read.</p>
      <Gated feature="actor_drilldown">
        <RecordingList />
      </Gated>
    </section>
  );
}

function RecordingList() {
  const projectId = Number(useRoute().params.projectId);
  const url = useUrlState();
  const query = queryOf(url);
  const key = JSON.stringify(query);
  const paged = usePaged((cursor) => ok(api.GET('/api/v1/projects/{id}/recordings', { params: { path: { id: projectId }, query: { ...query, ...(cursor ? { cursor } : {}) } } })), [projectId, key]);
  const items: Summary[] = paged.items;

  return (
    <>
      <Filters url={url} />
      {paged.loading && items.length === 0 ? (
        <Loading />
      ) : items.length === 0 && !paged.error ? (
        <div class="state empty">
          <strong>No recordings match</strong>
          <div>Loosen the filters, or turn recordings on in the project's behavior settings.</div>
        </div>
      ) : (
        <RecordingsTable projectId={projectId} items={items} />
      )}
      <LoadMore paged={paged} />
    </>
  );
}

function RecordingsTable({ projectId, items }: { projectId: number; items: Summary[] }) {
  return (
    <Table label="Recordings" class="recordings-table" testId="recordings-table">
      <TableHead columns={['Started', 'Person', 'Duration', 'Pages', 'Clicks', 'Rage clicks', 'Dead clicks', 'First page']} actions />
      <tbody>
        {items.map((r) => (
          <tr data-session={r.session_id}>
            <td>{formatDateTime(r.started_at)}</td>
            <td class="truncate">
              <PersonLink projectId={projectId} actorId={r.person} />
            </td>
            <td>{formatDuration(r.duration_ms / 1000)}</td>
            <td class="num">{formatNumber(r.page_views)}</td>
            <td class="num">{formatNumber(r.clicks)}</td>
            <td class="num">{formatNumber(r.rage_clicks)}</td>
            <td class="num">{formatNumber(r.dead_clicks)}</td>
            <td class="truncate">{r.first_url ?? '—'}</td>
            <td>
              <a href={recordingHref(projectId, r.session_id)} aria-label={`Watch the recording of ${r.person} from ${formatDateTime(r.started_at)}`}>
                Watch
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Filters({ url }: { url: UrlState }) {
  const { value, put, onInput: set, apply } = useFilterDraft(url);
  const check = (k: string) => (e: Event) => put(k, (e.currentTarget as HTMLInputElement).checked ? 'true' : '');
  return (
    <form class="control-bar" onSubmit={apply} aria-label="Filters">
      {TEXT_FILTERS.map(([k, label]) => (
        <div class="control">
          <label class="control-label" for={`r-${k}`}>
            {label}
          </label>
          <input id={`r-${k}`} value={value(k)} onInput={set(k)} />
        </div>
      ))}
      <div class="control">
        <label class="control-label" for="r-from">
          Started from
        </label>
        <input id="r-from" type="datetime-local" value={toLocal(value('from'))} onInput={(e) => put('from', toIso((e.currentTarget as HTMLInputElement).value))} />
      </div>
      <div class="control">
        <label class="control-label" for="r-to">
          Started before
        </label>
        <input id="r-to" type="datetime-local" value={toLocal(value('to'))} onInput={(e) => put('to', toIso((e.currentTarget as HTMLInputElement).value))} />
      </div>
      {NUMBER_FILTERS.map(([k, label]) => (
        <div class="control">
          <label class="control-label" for={`r-${k}`}>
            {label}
          </label>
          <input id={`r-${k}`} type="number" min={0} value={value(k)} onInput={set(k)} />
        </div>
      ))}
      <label class="check control">
        <input type="checkbox" checked={value('rage_clicks') === 'true'} onChange={check('rage_clicks')} />
        With rage clicks
      </label>
      <label class="check control">
        <input type="checkbox" checked={value('dead_clicks') === 'true'} onChange={check('dead_clicks')} />
        With dead clicks
      </label>
      <div class="control">
        <button type="submit" class="button primary">
          Apply
        </button>
      </div>
    </form>
  );
}

// Web: visitors, page views, views per visit, bounce rate and visit duration against the previous
// period, a daily chart, and the pages, sources, places and devices tables. Every row is a filter
// for the whole page (a country, then a device: both hold); dates and filters live in the URL, as
// an insight's do. The live count asks again every 30 seconds.

import { useEffect } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { useInsight } from '../queries/insight';
import { ControlBar, DateRange, FilterEditor, filtersOf, usePropertyKeys } from '../queries/controls/Controls';
import { filterText } from '../queries/filters';
import { LineChart } from '../ui/charts/LineChart';
import { formatNumber, formatDuration } from '../ui/format';
import { useAsync } from '../ui/useAsync';
import { AnswerError, Empty, Loading } from '../ui/states';
import './web.css';

type Summary = Schemas['WebSummaryResponse'];
type Row = Schemas['WebRow'];
type TotalKey = keyof Schemas['WebTotals'];

const TOTALS: Array<{ key: TotalKey; label: string; show(v: number | null): string; lowerIsBetter?: boolean }> = [
  { key: 'visitors', label: 'Visitors', show: (v) => formatNumber(v ?? 0) },
  { key: 'page_views', label: 'Page views', show: (v) => formatNumber(v ?? 0) },
  { key: 'views_per_visit', label: 'Views per visit', show: (v) => (v === null ? '–' : v.toFixed(2)) },
  { key: 'bounce_rate', label: 'Bounce rate', show: (v) => (v === null ? '–' : `${Math.round(v * 100)}%`), lowerIsBetter: true },
  { key: 'visit_duration', label: 'Visit duration', show: (v) => (v === null ? '–' : formatDuration(Math.round(v))) },
];

/** The tables: which answer field, its heading, and the filter a row stands for. */
const TABLES: Array<{ key: keyof Summary; title: string; column: string; field: string }> = [
  { key: 'pages', title: 'Top pages', column: 'Page', field: 'path' },
  { key: 'entry_pages', title: 'Entry pages', column: 'Page', field: 'path' },
  { key: 'exit_pages', title: 'Exit pages', column: 'Page', field: 'path' },
  { key: 'channels', title: 'Channels', column: 'Channel', field: 'props.$channel' },
  { key: 'referrers', title: 'Referrers', column: 'Referrer', field: 'props.$referring_domain' },
  { key: 'campaigns', title: 'Campaigns', column: 'Campaign', field: 'props.$utm_campaign' },
  { key: 'countries', title: 'Countries', column: 'Country', field: 'props.$country' },
  { key: 'browsers', title: 'Browsers', column: 'Browser', field: 'props.$browser' },
  { key: 'operating_systems', title: 'Operating systems', column: 'OS', field: 'props.$os' },
  { key: 'devices', title: 'Devices', column: 'Device', field: 'props.$device_type' },
];

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
function label(field: string, value: string | null): string {
  if (value === null) return '(none)';
  if (field === 'props.$country') {
    try {
      return countryNames.of(value) ?? value;
    } catch {
      return value;
    }
  }
  return value;
}

function change(v: number | null, lowerIsBetter?: boolean) {
  if (v === null) return <span class="web-change">–</span>;
  const up = v > 0;
  const good = v === 0 ? '' : up !== Boolean(lowerIsBetter) ? 'good' : 'bad';
  return <span class={`web-change ${good}`}>{`${up ? '+' : ''}${Math.round(v * 100)}%`}</span>;
}

export function WebAnalytics() {
  const ctx = useInsight();
  const keys = usePropertyKeys(ctx.projectId);
  const filterList = ctx.url.list('filter');
  const filters = filtersOf(filterList);
  const body = { date_from: ctx.from, date_to: ctx.to, ...(filters.length ? { filters } : {}) } as Schemas['WebSummaryRequest'];
  const answer = useAsync(
    () => ok(api.POST('/api/v1/projects/{id}/queries/web', { params: { path: { id: ctx.projectId } }, body })),
    [ctx.projectId, JSON.stringify(body)],
  );
  // The live count: a fresh answer every 30 seconds.
  useEffect(() => {
    const timer = setInterval(() => answer.reload(), 30_000);
    return () => clearInterval(timer);
  }, [answer.reload]);
  const addFilter = (field: string, value: string | null) => {
    const text = filterText(value === null ? { field, op: 'not_exists' } : { field, op: 'eq', value });
    if (!filterList.includes(text)) ctx.url.set({ filter: [...filterList, text] });
  };
  if (!ctx.project) return <Empty title="No such project in this organization" />;
  const data = answer.data;
  return (
    <section class="page web-page" aria-labelledby="web-title">
      <header class="page-head">
        <h1 id="web-title">Web</h1>
        <p class="result-meta">
          {ctx.project.name} · days in {ctx.project.timezone}
          {data && (
            <>
              {' · '}
              <span data-testid="web-live">{formatNumber(data.live_visitors)}</span> visitors in the last 5 minutes
            </>
          )}
        </p>
      </header>
      <ControlBar>
        <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
        <FilterEditor projectId={ctx.projectId} filters={filterList} keys={keys} onChange={(f) => ctx.url.set({ filter: f })} segments={false} />
      </ControlBar>
      {answer.error && <AnswerError error={answer.error} />}
      {!data && !answer.error && <Loading />}
      {data && (
        <>
          <ul class="web-totals" aria-label="Totals">
            {TOTALS.map((t) => (
              <li data-testid={`web-total-${t.key}`}>
                <span class="web-total-label">{t.label}</span>
                <strong class="web-total-value">{t.show(data.totals[t.key])}</strong>
                {change(data.change[t.key], t.lowerIsBetter)}
              </li>
            ))}
          </ul>
          <LineChart
            title="Visitors and page views per day"
            labels={data.series.map((s) => s.bucket)}
            series={[
              { name: 'Visitors', values: data.series.map((s) => s.visitors) },
              { name: 'Page views', values: data.series.map((s) => s.page_views) },
            ]}
          />
          <div class="web-tables">
            {TABLES.map((t) => (
              <WebTable title={t.title} column={t.column} rows={data[t.key] as Row[]} field={t.field} onPick={addFilter} pages={t.key === 'pages'} testId={`web-table-${t.key}`} />
            ))}
          </div>
        </>
      )}
      <footer class="result-meta web-attribution">
        Countries: <a href="https://db-ip.com" rel="noreferrer">IP Geolocation by DB-IP</a>, licensed under{' '}
        <a href="https://creativecommons.org/licenses/by/4.0/" rel="noreferrer">CC BY 4.0</a>, shipped with pp and read offline.
      </footer>
    </section>
  );
}

function WebTable({ title, column, rows, field, onPick, pages, testId }: { title: string; column: string; rows: Row[]; field: string; onPick(field: string, value: string | null): void; pages: boolean; testId: string }) {
  return (
    <section class="web-table" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p class="result-meta">Nothing in this range.</p>
      ) : (
        <table data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col">Visitors</th>
              <th scope="col">{pages ? 'Page views' : 'Visits'}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr>
                <th scope="row">
                  <button type="button" class="link-button" title={`Show only ${label(field, r.value)}`} onClick={() => onPick(field, r.value)}>
                    {label(field, r.value)}
                  </button>
                </th>
                <td>{formatNumber(r.visitors)}</td>
                <td>{formatNumber(pages ? r.page_views : r.visits)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

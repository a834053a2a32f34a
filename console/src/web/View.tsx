// The Web answer drawn: the five totals with their change, the daily chart and the tables. On the
// Web page each table row is a button that adds its filter, and the countries are also a map
// beside their table (WorldMap, loaded as a chunk of its own); on a dashboard tile the rows are
// text and there is no map.

import { useEffect, useState } from 'preact/hooks';
import type { QueryAnswer } from '../queries/queryTypes';
import { LineChart } from '../ui/charts/LineChart';
import { formatDuration, formatNumber } from '../ui/format';
import './web.css';

type Summary = QueryAnswer<'web'>;
type Row = Summary['pages'][number];
type TotalKey = keyof Summary['totals'];

export const TOTALS: Array<{ key: TotalKey; label: string; show(v: number | null): string; lowerIsBetter?: boolean }> = [
  { key: 'visitors', label: 'Visitors', show: (v) => formatNumber(v ?? 0) },
  { key: 'page_views', label: 'Page views', show: (v) => formatNumber(v ?? 0) },
  { key: 'views_per_visit', label: 'Views per visit', show: (v) => (v === null ? '–' : v.toFixed(2)) },
  { key: 'bounce_rate', label: 'Bounce rate', show: (v) => (v === null ? '–' : `${Math.round(v * 100)}%`), lowerIsBetter: true },
  { key: 'visit_duration', label: 'Visit duration', show: (v) => (v === null ? '–' : formatDuration(Math.round(v))) },
];

/** The tables: the answer's field, heading, first column and the filter field a row stands for. */
export const TABLES: Array<{ key: Exclude<keyof Summary, 'date_from' | 'date_to' | 'totals' | 'previous' | 'change' | 'series' | 'live_visitors'>; title: string; column: string; field: string }> = [
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

/** How a row's value reads: countries by name, a missing value as "(none)". */
export function rowLabel(field: string, value: string | null): string {
  if (value === null) return '(none)';
  if (field !== 'props.$country') return value;
  try {
    return countryNames.of(value) ?? value;
  } catch {
    return value;
  }
}

function Change({ value, lowerIsBetter }: { value: number | null; lowerIsBetter?: boolean }) {
  if (value === null) return <span class="web-change">no change to compare</span>;
  const tone = value === 0 ? '' : value > 0 !== Boolean(lowerIsBetter) ? 'good' : 'bad';
  return <span class={`web-change ${tone}`}>{`${value > 0 ? '+' : ''}${Math.round(value * 100)}% vs previous`}</span>;
}

export function WebAnswer({ data, onPick }: { data: Summary; onPick?(field: string, value: string | null): void }) {
  return (
    <div class="web-answer">
      <ul class="web-totals" aria-label="Totals">
        {TOTALS.map((t) => (
          <li data-testid={`web-total-${t.key}`}>
            <span class="web-total-label">{t.label}</span>
            <strong class="web-total-value">{t.show(data.totals[t.key])}</strong>
            <Change value={data.change[t.key]} lowerIsBetter={t.lowerIsBetter} />
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
        {TABLES.flatMap((t) => [
          <WebTable title={t.title} column={t.column} rows={data[t.key]} field={t.field} onPick={onPick} pages={t.key === 'pages'} testId={`web-table-${t.key}`} />,
          t.key === 'countries' && onPick ? <CountriesMap rows={data.countries} onPick={(code) => onPick(t.field, code)} /> : null,
        ])}
      </div>
    </div>
  );
}

type WorldMapModule = typeof import('./WorldMap');
let worldMap: Promise<WorldMapModule> | undefined;

/** The map of the countries table, once its module (with the outlines) has loaded. */
function CountriesMap({ rows, onPick }: { rows: Row[]; onPick(code: string): void }) {
  const [module, setModule] = useState<WorldMapModule | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    worldMap ??= import('./WorldMap');
    worldMap.then(
      (m) => live && setModule(m),
      () => {
        worldMap = undefined;
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <section class="web-table web-map-section" aria-label="Countries on a map">
      <h2>Countries on a map</h2>
      {module ? (
        <module.WorldMap rows={rows} label={(code) => rowLabel('props.$country', code)} onPick={onPick} />
      ) : (
        <p class="muted">{failed ? 'The map could not be loaded; reload the page to try again.' : 'Loading the map…'}</p>
      )}
    </section>
  );
}

function WebTable({
  title,
  column,
  rows,
  field,
  onPick,
  pages,
  testId,
}: {
  title: string;
  column: string;
  rows: Row[];
  field: string;
  onPick?(field: string, value: string | null): void;
  pages: boolean;
  testId: string;
}) {
  return (
    <section class="web-table" aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p class="muted">Nothing in this range.</p>
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
                  {onPick ? (
                    <button type="button" class="link-button" title={`Only ${rowLabel(field, r.value)}`} onClick={() => onPick(field, r.value)}>
                      {rowLabel(field, r.value)}
                    </button>
                  ) : (
                    rowLabel(field, r.value)
                  )}
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

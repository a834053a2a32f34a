// Segmentation: one event (or any) over time, as a line or bars, counted four ways (events,
// unique people, revenue, revenue per event), grouped by a property, compared with the period
// before.

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { LineChart } from '../ui/charts/LineChart';
import { BarChart } from '../ui/charts/BarChart';
import { formatBucket, formatMoney, formatNumber, valueLabel, type Interval } from '../ui/format';
import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, PropertyPicker, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight, usePartialBucket, useProjectCurrency } from './insight';
import { Table } from '../ui/Table';

type Metric = 'events' | 'uniques' | 'revenue' | 'revenue_avg';
const isMoney = (metric: string) => metric === 'revenue' || metric === 'revenue_avg';

/** The measures as the picker names them, money in the project's currency when it is known. */
function metricChoices(currency: string | undefined): ReadonlyArray<readonly [Metric, string]> {
  const inCurrency = currency ? ` (${currency})` : '';
  return [
    ['events', 'events'],
    ['uniques', 'unique people'],
    ['revenue', `revenue${inCurrency}`],
    ['revenue_avg', `revenue per event${inCurrency}`],
  ];
}

export function Segmentation() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const event = url.get('event', 'any');
  const metric = url.get('metric', 'events') as Metric;
  const currency = useProjectCurrency();
  const interval = url.get('interval', 'day') as 'hour' | 'day' | 'week' | 'month';
  const groupBy = url.get('group_by');
  const compare = url.get('compare') === 'previous';
  const chart = url.get('chart', 'line');
  const filters = url.list('filter');

  const body = {
    event,
    metric,
    interval,
    date_from: from,
    date_to: to,
    ...(groupBy ? { group_by: { property: groupBy } } : {}),
    ...(compare ? { compare: { period: 'previous' as const } } : {}),
    ...(filters.length ? { filters: filtersOf(filters) } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/segmentation', { params: { path: { id: projectId } }, body: body as never })), [projectId, key]);

  const controls = (
    <ControlBar>
      <EventPicker label="Event" value={event} names={names} allowAny onValue={(v) => url.set({ event: v })} />
      <ChoiceControl label="Measure" value={metric} choices={metricChoices(currency)} onValue={(v) => url.set({ metric: v })} />
      <ChoiceControl label="Per" value={interval} choices={['hour', 'day', 'week', 'month'].map((i) => [i, i] as const)} onValue={(v) => url.set({ interval: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <PropertyPicker label="Group by" value={groupBy} keys={keys} onValue={(v) => url.set({ group_by: v })} />
      <ChoiceControl label="Chart" value={chart} choices={[['line', 'line'], ['bar', 'bars']]} onValue={(v) => url.set({ chart: v })} />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame title="Segmentation" project={ctx.project} controls={controls} save={{ kind: 'segmentation', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isSegmentationEmpty}>
      {(d) => <SegmentationAnswer query={body} data={d} chart={chart === 'bar' ? 'bar' : 'line'} />}
    </InsightFrame>
  );
}

type SegmentationQuery = { event?: string; metric?: string; interval?: string; date_to?: string };

export const isSegmentationEmpty = (d: Schemas['SegmentationResponse']) => d.series.every((s) => s.points.every((p) => !p.value));

/** The series as a line (or bars, for one series) with each series' total, as the page and a dashboard tile show them. */
export function SegmentationAnswer({ query, data: d, chart = 'line' }: { query: SegmentationQuery; data: Schemas['SegmentationResponse']; chart?: 'line' | 'bar' }) {
  const event = query.event ?? 'any';
  const interval = (query.interval ?? 'day') as Interval;
  const metric = query.metric ?? 'events';
  const labels = d.series[0]?.points.map((p) => p.bucket) ?? [];
  const series = d.series.map((s) => ({ name: valueLabel(s.name), values: s.points.map((p) => p.value) }));
  if (d.compare) series.push(...d.compare.series.map((s) => ({ name: `${valueLabel(s.name)} (previous period)`, values: s.points.map((p) => p.value) })));
  const totals = d.series.map((s) => ({ name: valueLabel(s.name), total: s.points.reduce((n, p) => n + (p.value ?? 0), 0) }));
  const currency = useProjectCurrency();
  const partial = usePartialBucket(labels, query.date_to);
  return (
    <>
      {chart === 'bar' && series.length === 1 ? (
        <BarChart title={`${event} by ${interval}`} bars={labels.map((l, i) => ({ label: formatBucket(l, interval), value: series[0]!.values[i] ?? 0 }))} interval={interval} partial={partial} />
      ) : (
        <LineChart title={`${event} by ${interval}`} labels={labels} series={series} currency={isMoney(metric) ? currency : undefined} interval={interval} partial={partial} />
      )}
      <Table label="Segmentation numbers" testId="segmentation-table">
        <thead>
          <tr>
            <th scope="col">Series</th>
            <th scope="col">{metric === 'uniques' || metric === 'revenue_avg' ? 'Sum of buckets' : 'Total'}</th>
          </tr>
        </thead>
        <tbody>
          {totals.map((s) => (
            <tr>
              <th scope="row">{s.name}</th>
              <td data-col="total">{isMoney(metric) ? formatMoney(s.total, currency) : formatNumber(Math.round(s.total * 100) / 100)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

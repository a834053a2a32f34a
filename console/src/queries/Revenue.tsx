// Revenue summary: the signed sum of props.revenue (refunds negative) over the range, paying and
// active people, ARPU and ARPPU, refunds; and revenue per day; every amount in the currency the
// answer names (the project's).

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { LineChart } from '../ui/charts/LineChart';
import { formatMoney, formatNumber } from '../ui/format';
import { ControlBar, DateRange, FilterEditor, filtersOf, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight, usePartialBucket } from './insight';
import { Tile } from './Tile';

export function Revenue() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const keys = usePropertyKeys(projectId);
  const filters = url.list('filter');
  const f = filters.length ? { filters: filtersOf(filters) } : {};
  const key = JSON.stringify([from, to, filters]);
  const path = { params: { path: { id: projectId } } };
  const body = { date_from: from, date_to: to, ...f };
  const answer = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/revenue-summary', { ...path, body: body as never })), [projectId, key]);
  const daily = useAsync(
    () => ok(api.POST('/api/v1/projects/{id}/queries/segmentation', { ...path, body: { event: 'any', metric: 'revenue', interval: 'day', date_from: from, date_to: to, ...f } as never })),
    [projectId, key],
  );
  const controls = (
    <ControlBar>
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(x) => url.set({ filter: x })} />
    </ControlBar>
  );
  return (
    <InsightFrame title="Revenue" project={ctx.project} controls={controls} save={{ kind: 'revenue-summary', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isRevenueEmpty}>
      {(d) => (
        <>
          <RevenueAnswer data={d} />
          {daily.data && daily.data.series[0] && <RevenuePerDay currency={d.currency} points={daily.data.series[0].points} to={to} />}
        </>
      )}
    </InsightFrame>
  );
}

function RevenuePerDay({ currency, points, to }: { currency: string; points: Array<{ bucket: string; value: number | null }>; to: string }) {
  const labels = points.map((p) => p.bucket);
  const partial = usePartialBucket(labels, to);
  return <LineChart title={`Revenue per day (${currency})`} currency={currency} labels={labels} series={[{ name: 'Revenue', values: points.map((p) => p.value) }]} partial={partial} />;
}

export const isRevenueEmpty = (d: Schemas['RevenueSummaryResponse']) => d.active_actors === 0;

/** The revenue summary's figures as tiles, as the page and a dashboard tile show them. */
export function RevenueAnswer({ data: d }: { data: Schemas['RevenueSummaryResponse'] }) {
  const money = (n: number | null) => formatMoney(n, d.currency);
  return (
    <div class="tiles" data-testid="revenue-tiles">
      <Tile label="Revenue" value={money(d.revenue)} name="revenue" />
      <Tile label="Paying people" value={formatNumber(d.paying_actors)} name="paying_actors" />
      <Tile label="Active people" value={formatNumber(d.active_actors)} name="active_actors" />
      <Tile label="ARPU" value={money(d.arpu)} name="arpu" />
      <Tile label="ARPPU" value={money(d.arppu)} name="arppu" />
      <Tile label="Refunds" value={`${money(d.refunds)} (${formatNumber(d.refund_count)})`} name="refunds" />
    </div>
  );
}

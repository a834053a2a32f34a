// Revenue summary: the signed sum of props.revenue (refunds negative) over the range, paying and
// active people, ARPU and ARPPU, refunds; and revenue per day; every amount in the currency the
// answer names (the project's).

import { LineChart } from '../../ui/charts/LineChart';
import { ControlBar, DateRange, FilterEditor, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight, usePartialBucket } from '../insight';
import { useQuery } from '../useQuery';
import { isRevenueEmpty, revenueCodec } from './codec';
import { RevenueAnswer } from './View';

export function Revenue() {
  const ctx = useInsight(revenueCodec.defaultDays);
  const { projectId, url, to } = ctx;
  const keys = usePropertyKeys(projectId);
  const filters = url.list('filter');
  const body = revenueCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('revenue-summary', projectId, body);
  const daily = useQuery('segmentation', projectId, { event: 'any', metric: 'revenue', interval: 'day', ...body });
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
          {daily.data?.series[0] && <RevenuePerDay currency={d.currency} points={daily.data.series[0].points} to={to} />}
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

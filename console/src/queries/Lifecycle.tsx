// Lifecycle: each period's active people split into new, returning and resurrecting (above zero)
// and those who went dormant (below zero).

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { StackedBars } from '../ui/charts/StackedBars';
import { formatBucket, formatNumber } from '../ui/format';
import { ChoiceControl, ControlBar, DateRange, FilterEditor, filtersOf, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight, usePartialBucket } from './insight';
import { LONG_TABLE, NumbersTable } from '../ui/NumbersTable';
import { Table } from '../ui/Table';

export function Lifecycle() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const keys = usePropertyKeys(projectId);
  const interval = url.get('interval', 'day') as 'day' | 'week';
  const filters = url.list('filter');
  const body = { date_from: from, date_to: to, interval, ...(filters.length ? { filters: filtersOf(filters) } : {}) };
  const key = JSON.stringify(body);
  const answer = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/lifecycle', { params: { path: { id: projectId } }, body: body as never })), [projectId, key]);
  const controls = (
    <ControlBar>
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <ChoiceControl label="Per" value={interval} choices={[['day', 'day'], ['week', 'week']]} onValue={(v) => url.set({ interval: v })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );
  return (
    <InsightFrame title="Lifecycle" project={ctx.project} controls={controls} save={{ kind: 'lifecycle', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isLifecycleEmpty}>
      {(d) => <LifecycleAnswer query={body} data={d} />}
    </InsightFrame>
  );
}

export const isLifecycleEmpty = (d: Schemas['LifecycleResponse']) => d.buckets.every((b) => !b.new && !b.returning && !b.resurrecting && !b.dormant);

/** New, returning, resurrecting and dormant people per period, as the page and a dashboard tile show them. */
export function LifecycleAnswer({ query, data: d }: { query: { interval?: 'day' | 'week'; date_to?: string }; data: Schemas['LifecycleResponse'] }) {
  const interval = query.interval ?? 'day';
  const partial = usePartialBucket(d.buckets.map((b) => b.bucket), query.date_to);
  return (
    <>
      <StackedBars
        title="Active people by lifecycle state"
        labels={d.buckets.map((b) => b.bucket)}
        interval={interval}
        partial={partial}
        stacks={[
          { name: 'new', color: '#2b8a3e', values: d.buckets.map((b) => b.new) },
          { name: 'returning', color: '#3b4cca', values: d.buckets.map((b) => b.returning) },
          { name: 'resurrecting', color: '#e67700', values: d.buckets.map((b) => b.resurrecting) },
          { name: 'dormant', color: '#c92a2a', values: d.buckets.map((b) => -Math.abs(b.dormant)) },
        ]}
      />
      <NumbersTable collapsed={d.buckets.length > LONG_TABLE}>
        <Table label="Lifecycle numbers" testId="lifecycle-table">
          <thead>
            <tr>
              <th scope="col">{interval === 'day' ? 'Day' : 'Week'}</th>
              <th scope="col">New</th>
              <th scope="col">Returning</th>
              <th scope="col">Resurrecting</th>
              <th scope="col">Dormant</th>
            </tr>
          </thead>
          <tbody>
            {d.buckets.map((b, i) => (
              <tr>
                <th scope="row" data-bucket={b.bucket}>
                  {formatBucket(b.bucket, interval)}
                  {i === partial && <span class="so-far"> (so far)</span>}
                </th>
                <td>{formatNumber(b.new)}</td>
                <td>{formatNumber(b.returning)}</td>
                <td>{formatNumber(b.resurrecting)}</td>
                <td>{formatNumber(b.dormant)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </NumbersTable>
    </>
  );
}

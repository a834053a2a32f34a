// Lifecycle's periods as its page and a dashboard tile show them.

import { StackedBars } from '../../ui/charts/StackedBars';
import { formatBucket, formatNumber } from '../../ui/format';
import { LONG_TABLE, NumbersTable } from '../../ui/NumbersTable';
import { Table } from '../../ui/Table';
import { usePartialBucket } from '../insight';
import type { QueryAnswer } from '../queryTypes';

/** New, returning, resurrecting and dormant people per period, as the page and a dashboard tile show them. */
export function LifecycleAnswer({ query, data: d }: { query: { interval?: 'day' | 'week'; date_to?: string }; data: QueryAnswer<'lifecycle'> }) {
  const interval = query.interval ?? 'day';
  const partial = usePartialBucket(
    d.buckets.map((b) => b.bucket),
    query.date_to,
  );
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

// Segmentation's series as its page and a dashboard tile show them.

import { LineChart } from '../../ui/charts/LineChart';
import { BarChart } from '../../ui/charts/BarChart';
import { formatBucket, formatMoney, formatNumber, valueLabel, type Interval } from '../../ui/format';
import { Table } from '../../ui/Table';
import { usePartialBucket, useProjectCurrency } from '../insight';
import type { QueryAnswer } from '../queryTypes';

const isMoney = (metric: string) => metric === 'revenue' || metric === 'revenue_avg';

type SegmentationQuery = { event?: string; metric?: string; interval?: string; date_to?: string };

/** The series as a line (or bars, for one series) with each series' total, as the page and a dashboard tile show them. */
export function SegmentationAnswer({ query, data: d, chart = 'line' }: { query: SegmentationQuery; data: QueryAnswer<'segmentation'>; chart?: 'line' | 'bar' }) {
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

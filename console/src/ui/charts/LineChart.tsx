// A time series drawn by uPlot from plain numbers, with the same numbers in a table that opens
// below it (for screen readers, and for tests that compare what is drawn with the API's answer).
// Its value axis reads compactly (12K), in a currency when the numbers are money ($12K); its dates
// are the reader's (formatBucket); a bucket still filling is shaded, with a note. It never fetches.

import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useStable } from './drawn';
import { yAxisLabels } from './yAxisLabels';
import { formatBucket, formatCompact, formatMoney, formatMoneyCompact, formatNumber, type Interval } from '../format';
import { PartialNote } from './partial';
import { Table } from '../Table';

export interface Series {
  name: string;
  values: Array<number | null>;
}

// The container's width: the chart never makes the page wider. A box not laid out yet (0) gets a
// stand-in, which the resize observer corrects.
const widthOf = (el: HTMLElement) => el.clientWidth || 320;

const COLORS = ['#3b4cca', '#d9480f', '#2b8a3e', '#ae3ec9', '#1098ad', '#e67700', '#5c940d', '#c2255c'];

/** Room between date labels on the axis, by how long the interval's labels are. */
const LABEL_SPACE: Record<Interval, number> = { hour: 170, day: 110, week: 110, month: 130 };

/** The band over a bucket still filling, from halfway to it to the plot's right edge. */
function shadePartial(partial: number) {
  return (u: uPlot) => {
    if (partial < 0) return;
    const ctx = u.ctx;
    const left = Math.max(u.bbox.left, u.valToPos(partial - 0.5, 'x', true));
    const right = u.bbox.left + u.bbox.width;
    ctx.save();
    ctx.fillStyle = 'rgba(134, 142, 150, 0.14)';
    ctx.fillRect(left, u.bbox.top, right - left, u.bbox.height);
    ctx.setLineDash([4 * uPlot.pxRatio, 4 * uPlot.pxRatio]);
    ctx.strokeStyle = '#8c959f';
    ctx.lineWidth = uPlot.pxRatio;
    ctx.beginPath();
    ctx.moveTo(left, u.bbox.top);
    ctx.lineTo(left, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  };
}

/**
 * `labels` are the buckets (YYYY-MM-DD, or local RFC 3339 for hours) of `interval`; `currency`: the
 * values are amounts in this ISO 4217 currency; `partial`: the index of a bucket still filling, -1
 * for none.
 */
export function LineChart({
  labels,
  series,
  title,
  height = 260,
  currency,
  interval = 'day',
  partial = -1,
}: {
  labels: string[];
  series: Series[];
  title: string;
  height?: number;
  currency?: string;
  interval?: Interval;
  partial?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const data = useStable({ labels, series });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { labels, series } = data;
    const xs = labels.map((_, i) => i);
    const dates = labels.map((l) => formatBucket(l, interval));
    const y = yAxisLabels(currency === undefined ? formatCompact : (v) => formatMoneyCompact(v, currency));
    const value = currency === undefined ? formatNumber : (v: number) => formatMoney(v, currency);
    const plot = new uPlot(
      {
        width: widthOf(el),
        height,
        scales: { x: { time: false } },
        axes: [
          // Whole buckets only, dated as everywhere on the page, spaced so they never overlap.
          {
            space: LABEL_SPACE[interval],
            incrs: [1, 2, 3, 6, 7, 12, 14, 24, 30, 60, 90, 180, 365],
            values: (_u, ticks) => ticks.map((t) => dates[t] ?? ''),
            stroke: '#495057',
            grid: { stroke: '#e9ecef' },
          },
          y.axis,
        ],
        series: [
          { label: 'Date', value: (_u, v) => dates[v] ?? '' },
          // The legend shows a value only for the bucket under the pointer (uPlot's own placeholder otherwise is "--").
          ...series.map((s, i) => ({
            label: s.name,
            stroke: COLORS[i % COLORS.length],
            width: 2,
            points: { show: labels.length < 40 },
            value: (_u: uPlot, v: number | null, _s: number, at: number | null) => (at === null ? '' : v === null ? '—' : value(v)),
          })),
        ],
        legend: { show: series.length > 1 },
        hooks: { ...y.hooks, drawAxes: [shadePartial(partial)] },
      },
      [xs, ...series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    performance.mark('pp:drawn');
    const resize = new ResizeObserver(() => plot.setSize({ width: widthOf(el), height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [data, height, currency, interval, partial]);
  return (
    <figure class="chart" data-partial={partial >= 0 ? String(partial) : undefined}>
      <div ref={box} class="chart-canvas" role="img" aria-label={title} />
      <PartialNote interval={interval} partial={partial} />
      <DataTable labels={labels} series={series} title={title} interval={interval} partial={partial} />
    </figure>
  );
}

/**
 * The chart's numbers as a table, built only when opened: a long hourly series in ten groups is
 * twenty thousand cells, which would cost more than drawing the chart.
 */
function DataTable({ labels, series, title, interval, partial }: { labels: string[]; series: Series[]; title: string; interval: Interval; partial: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="chart-details" onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>Numbers of the chart</summary>
      {open && (
        <Table label={`${title}: numbers`} class="chart-data">
          <caption class="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Date</th>
              {series.map((s) => (
                <th scope="col">{s.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {labels.map((label, i) => (
              <tr>
                <th scope="row" data-bucket={label}>
                  {formatBucket(label, interval)}
                  {i === partial && <span class="so-far"> (so far)</span>}
                </th>
                {series.map((s) => (
                  <td>{s.values[i] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </details>
  );
}

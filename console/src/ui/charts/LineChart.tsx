// A time series drawn by uPlot from plain numbers, with the same numbers in a table that opens
// below it (for screen readers, and for tests that compare what is drawn with the API's answer).
// Its value axis reads compactly (12K), in a currency when the numbers are money ($12K). It never
// fetches.

import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useStable } from './drawn';
import { yAxisLabels } from './yAxisLabels';
import { formatCompact, formatMoneyCompact } from '../format';
import { Table } from '../Table';

export interface Series {
  name: string;
  values: Array<number | null>;
}

function shortLabel(label: string | undefined): string {
  if (!label) return '';
  return label.length > 10 ? `${label.slice(5, 10)} ${label.slice(11, 16)}` : label.slice(5);
}

// The container's width: the chart never makes the page wider. A box not laid out yet (0) gets a
// stand-in, which the resize observer corrects.
const widthOf = (el: HTMLElement) => el.clientWidth || 320;

const COLORS = ['#3b4cca', '#d9480f', '#2b8a3e', '#ae3ec9', '#1098ad', '#e67700', '#5c940d', '#c2255c'];

/** `currency`: the values are amounts in this ISO 4217 currency. */
export function LineChart({ labels, series, title, height = 260, currency }: { labels: string[]; series: Series[]; title: string; height?: number; currency?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const data = useStable({ labels, series });
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const { labels, series } = data;
    const xs = labels.map((_, i) => i);
    const y = yAxisLabels(currency === undefined ? formatCompact : (v) => formatMoneyCompact(v, currency));
    const plot = new uPlot(
      {
        width: widthOf(el),
        height,
        scales: { x: { time: false } },
        axes: [
          // Whole buckets only, as short dates (MM-DD, or MM-DD HH:MM for hours), spaced so they never overlap.
          { space: 70, incrs: [1, 2, 7, 14, 30, 60, 90, 180, 365], values: (_u, ticks) => ticks.map((t) => shortLabel(labels[t])), stroke: '#495057', grid: { stroke: '#e9ecef' } },
          y.axis,
        ],
        series: [{ label: 'Date', value: (_u, v) => labels[v] ?? '' }, ...series.map((s, i) => ({ label: s.name, stroke: COLORS[i % COLORS.length], width: 2, points: { show: labels.length < 40 } }))],
        legend: { show: series.length > 1 },
        hooks: y.hooks,
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
  }, [data, height, currency]);
  return (
    <figure class="chart">
      <div ref={box} class="chart-canvas" role="img" aria-label={title} />
      <DataTable labels={labels} series={series} title={title} />
    </figure>
  );
}

/**
 * The chart's numbers as a table, built only when opened: a long hourly series in ten groups is
 * twenty thousand cells, which would cost more than drawing the chart.
 */
function DataTable({ labels, series, title }: { labels: string[]; series: Series[]; title: string }) {
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
                <th scope="row">{label}</th>
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

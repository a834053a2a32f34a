// Horizontal bars in SVG from plain numbers, one labelled row each with its figure written beside
// the bar: how far a page is read, where a form is left. It never fetches.

import { useDrawnMark } from '../ui/charts/drawn';

export interface HorizontalBar {
  label: string;
  value: number;
  /** The figure written at the end of the bar. */
  text: string;
}

const W = 860;
const ROW = 30;
const LABEL_W = 260;
const TEXT_W = 200;
const LABEL_CHARS = 34;

export function HorizontalBars({ bars, max, title, testId, color = '#3b4cca' }: { bars: HorizontalBar[]; max: number; title: string; testId: string; color?: string }) {
  useDrawnMark([bars]);
  const plotW = W - LABEL_W - TEXT_W;
  const H = Math.max(1, bars.length) * ROW + 8;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart" data-testid={testId}>
        {bars.map((b, i) => {
          const y = 4 + i * ROW;
          const w = max > 0 ? (Math.max(0, b.value) / max) * plotW : 0;
          return (
            <g class="hbar" data-label={b.label} data-value={b.value}>
              <text x={LABEL_W - 10} y={y + ROW / 2 + 4} text-anchor="end" class="bar-label">
                {b.label.length > LABEL_CHARS ? `${b.label.slice(0, LABEL_CHARS - 1)}…` : b.label}
              </text>
              <rect x={LABEL_W} y={y + 4} width={plotW} height={ROW - 8} fill="#eef0ff" />
              <rect x={LABEL_W} y={y + 4} width={w} height={ROW - 8} fill={color} />
              <text x={LABEL_W + plotW + 10} y={y + ROW / 2 + 4} class="bar-sub">
                {b.text}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

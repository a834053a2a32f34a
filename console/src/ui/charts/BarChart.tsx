// Vertical bars in SVG from plain numbers (stickiness, a segmentation shown as bars). Negative
// values hang below the zero line. It never fetches.

import { useDrawnMark } from './drawn';

export interface Bar {
  label: string;
  value: number;
}

const W = 860;
const H = 260;
const PAD = 30;

export function BarChart({ bars, title, color = '#3b4cca' }: { bars: Bar[]; title: string; color?: string }) {
  useDrawnMark([bars]);
  const max = Math.max(0, ...bars.map((b) => b.value));
  const min = Math.min(0, ...bars.map((b) => b.value));
  const span = max - min || 1;
  const plotH = H - PAD * 2;
  const zero = PAD + (max / span) * plotH;
  const slot = (W - PAD) / Math.max(bars.length, 1);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const every = Math.ceil(bars.length / 14);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart">
        <line x1={PAD} x2={W} y1={zero} y2={zero} stroke="#8c959f" />
        {bars.map((b, i) => {
          const h = (Math.abs(b.value) / span) * plotH;
          const x = PAD + i * slot + (slot - barW) / 2;
          return (
            <g>
              <rect x={x} y={b.value >= 0 ? zero - h : zero} width={barW} height={h} fill={color} />
              {i % every === 0 && (
                <text x={x + barW / 2} y={H - 8} text-anchor="middle" class="bar-sub">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
        <text x={PAD} y={PAD - 10} class="bar-sub">
          {max.toLocaleString('en-US')}
        </text>
      </svg>
    </figure>
  );
}

// Vertical bars in SVG from plain numbers (stickiness, a segmentation shown as bars) against a
// value axis. Negative values hang below the zero line; a bucket still filling is hatched. It
// never fetches.

import { useDrawnMark } from './drawn';
import { ValueAxisMarks, valueAxis } from './valueAxis';
import { HATCH_ID, HatchPattern, PartialNote } from './partial';
import type { Interval } from '../format';

export interface Bar {
  label: string;
  value: number;
}

const W = 860;
const H = 260;
const PAD = 22;

/** `partial`: the index of a bucket still filling (with its `interval`), -1 for none. */
export function BarChart({ bars, title, color = '#3b4cca', interval = 'day', partial = -1 }: { bars: Bar[]; title: string; color?: string; interval?: Interval; partial?: number }) {
  useDrawnMark([bars]);
  const axis = valueAxis(Math.min(0, ...bars.map((b) => b.value)), Math.max(0, ...bars.map((b) => b.value)));
  const left = axis.width;
  const plotH = H - PAD * 2;
  const y = (v: number) => PAD + ((axis.max - v) / (axis.max - axis.min)) * plotH;
  const zero = y(0);
  const slot = (W - left) / Math.max(bars.length, 1);
  const barW = Math.max(2, Math.min(48, slot * 0.7));
  const widest = Math.max(1, ...bars.map((b) => b.label.length)) * 7 + 10;
  const every = Math.ceil(bars.length / Math.max(1, Math.floor((W - left) / widest)));
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart">
        <HatchPattern />
        <ValueAxisMarks axis={axis} left={left} right={W} y={y} />
        {bars.map((b, i) => {
          const h = Math.abs(y(b.value) - zero);
          const x = left + i * slot + (slot - barW) / 2;
          const top = b.value >= 0 ? zero - h : zero;
          return (
            <g data-partial={i === partial ? 'true' : undefined}>
              <rect x={x} y={top} width={barW} height={h} fill={color} />
              {i === partial && <rect class="partial-bar" x={x} y={top} width={barW} height={h} fill={`url(#${HATCH_ID})`} />}
              {i % every === 0 && (
                <text x={x + barW / 2} y={H - 4} text-anchor="middle" class="bar-sub">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <PartialNote interval={interval} partial={partial} />
    </figure>
  );
}

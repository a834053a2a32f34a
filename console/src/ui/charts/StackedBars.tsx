// Stacked bars in SVG: positive series stack up from zero, negative ones (lifecycle's dormant)
// hang below it, against a value axis; a bucket still filling is hatched. Plain numbers in,
// nothing fetched.

import { useDrawnMark } from './drawn';
import { ValueAxisMarks, valueAxis } from './valueAxis';
import { HATCH_ID, HatchPattern, PartialNote } from './partial';
import { formatBucket, type Interval } from '../format';

export interface Stack {
  name: string;
  color: string;
  values: number[];
}

const W = 860;
const H = 300;
const PAD = 24;

/** `labels` are the buckets (YYYY-MM-DD); `partial` the index of one still filling, -1 for none. */
export function StackedBars({ labels, stacks, title, interval = 'day', partial = -1 }: { labels: string[]; stacks: Stack[]; title: string; interval?: Interval; partial?: number }) {
  useDrawnMark([labels, stacks]);
  const up = labels.map((_, i) => stacks.reduce((s, st) => s + Math.max(0, st.values[i] ?? 0), 0));
  const down = labels.map((_, i) => stacks.reduce((s, st) => s + Math.min(0, st.values[i] ?? 0), 0));
  const axis = valueAxis(Math.min(0, ...down), Math.max(0, ...up));
  const left = axis.width;
  const plotH = H - PAD * 2;
  const y = (v: number) => PAD + ((axis.max - v) / (axis.max - axis.min)) * plotH;
  const zero = y(0);
  const slot = (W - left) / Math.max(labels.length, 1);
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  // A date label is about 90 units wide: fewer labels than slots when the bars are narrow.
  const every = Math.ceil(labels.length / Math.max(1, Math.floor((W - left) / 100)));
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart">
        <HatchPattern />
        <ValueAxisMarks axis={axis} left={left} right={W} y={y} />
        {labels.map((label, i) => {
          let above = zero;
          let below = zero;
          const x = left + i * slot + (slot - barW) / 2;
          return (
            <g data-partial={i === partial ? 'true' : undefined}>
              {stacks.map((st) => {
                const v = st.values[i] ?? 0;
                const h = Math.abs(y(v) - zero);
                if (v >= 0) {
                  above -= h;
                  return <rect x={x} y={above} width={barW} height={h} fill={st.color} />;
                }
                const top = below;
                below += h;
                return <rect x={x} y={top} width={barW} height={h} fill={st.color} />;
              })}
              {i === partial && <rect class="partial-bar" x={x} y={above} width={barW} height={below - above} fill={`url(#${HATCH_ID})`} />}
              {i % every === 0 && (
                <text x={x + barW / 2} y={H - 6} text-anchor="middle" class="bar-sub">
                  {formatBucket(label, interval)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption class="legend">
        {stacks.map((st) => (
          <span>
            <span class="swatch" style={{ background: st.color }} /> {st.name}
          </span>
        ))}
      </figcaption>
      <PartialNote interval={interval} partial={partial} />
    </figure>
  );
}

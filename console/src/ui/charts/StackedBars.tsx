// Stacked bars in SVG: positive series stack up from zero, negative ones (lifecycle's dormant)
// hang below it. Plain numbers in, nothing fetched.

import { useDrawnMark } from './drawn';

export interface Stack {
  name: string;
  color: string;
  values: number[];
}

const W = 860;
const H = 300;
const PAD = 34;

export function StackedBars({ labels, stacks, title }: { labels: string[]; stacks: Stack[]; title: string }) {
  useDrawnMark([labels, stacks]);
  const up = labels.map((_, i) => stacks.reduce((s, st) => s + Math.max(0, st.values[i] ?? 0), 0));
  const down = labels.map((_, i) => stacks.reduce((s, st) => s + Math.min(0, st.values[i] ?? 0), 0));
  const max = Math.max(1, ...up);
  const min = Math.min(0, ...down);
  const span = max - min;
  const plotH = H - PAD * 2;
  const zero = PAD + (max / span) * plotH;
  const slot = (W - PAD) / Math.max(labels.length, 1);
  const barW = Math.max(2, Math.min(40, slot * 0.7));
  const every = Math.ceil(labels.length / 14);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart">
        <line x1={PAD} x2={W} y1={zero} y2={zero} stroke="#8c959f" />
        {labels.map((label, i) => {
          let above = zero;
          let below = zero;
          const x = PAD + i * slot + (slot - barW) / 2;
          return (
            <g>
              {stacks.map((st) => {
                const v = st.values[i] ?? 0;
                const h = (Math.abs(v) / span) * plotH;
                if (v >= 0) {
                  above -= h;
                  return <rect x={x} y={above} width={barW} height={h} fill={st.color} />;
                }
                const y = below;
                below += h;
                return <rect x={x} y={y} width={barW} height={h} fill={st.color} />;
              })}
              {i % every === 0 && (
                <text x={x + barW / 2} y={H - 6} text-anchor="middle" class="bar-sub">
                  {label.slice(5)}
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
    </figure>
  );
}

// Funnel bars drawn in SVG: one bar per step, its height the share of step 1, with the count,
// the conversion from the previous step and the median time it took. It never fetches.

import { useDrawnMark } from './drawn';

import { formatDuration } from '../format';

export interface FunnelBar {
  label: string;
  count: number;
  conversion: number | null;
  stepConversion: number | null;
  medianSeconds: number | null;
}

const W = 860;
const H = 300;
const TOP = 28;
const BOTTOM = 64;

export function FunnelChart({ steps, title, compare }: { steps: FunnelBar[]; title: string; compare?: FunnelBar[] }) {
  useDrawnMark([steps, compare]);
  const n = steps.length;
  const slot = W / Math.max(n, 1);
  const barW = Math.min(120, slot * (compare ? 0.36 : 0.6));
  const first = steps[0]?.count || 1;
  const firstCompare = compare?.[0]?.count || 1;
  const plotH = H - TOP - BOTTOM;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title} class="svg-chart">
        {steps.map((s, i) => {
          const x = i * slot + (slot - (compare ? barW * 2 + 6 : barW)) / 2;
          const h = (s.count / first) * plotH;
          const c = compare?.[i];
          const ch = c ? (c.count / firstCompare) * plotH : 0;
          return (
            <g>
              <rect x={x} y={TOP} width={barW} height={plotH} fill="#eef0ff" />
              <rect x={x} y={TOP + plotH - h} width={barW} height={h} fill="#3b4cca" />
              {c && <rect x={x + barW + 6} y={TOP + plotH - ch} width={barW} height={ch} fill="#9aa5f0" />}
              <text x={x + barW / 2} y={TOP + plotH - h - 6} text-anchor="middle" class="bar-value">
                {s.count.toLocaleString('en-US')}
              </text>
              <text x={i * slot + slot / 2} y={H - BOTTOM + 20} text-anchor="middle" class="bar-label">
                {i + 1}. {s.label.length > 22 ? `${s.label.slice(0, 21)}…` : s.label}
              </text>
              <text x={i * slot + slot / 2} y={H - BOTTOM + 38} text-anchor="middle" class="bar-sub">
                {s.conversion === null ? '' : `${(s.conversion * 100).toFixed(1)}% of step 1`}
              </text>
              {i > 0 && (
                <text x={i * slot + slot / 2} y={H - BOTTOM + 55} text-anchor="middle" class="bar-sub">
                  {s.medianSeconds === null ? '' : `median ${formatDuration(s.medianSeconds)}`}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

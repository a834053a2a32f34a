// The value axis of the SVG bar charts, as the line charts have it: round steps (1, 2 or 5 times a
// power of ten) that cover every value and zero, each with a grid line and a compact label
// (formatCompact, as the line charts' axis), the plot scaled to the first and last step.
import { formatCompact } from '../format';

export interface ValueAxis {
  ticks: number[];
  min: number;
  max: number;
  /** The room the labels take left of the plot, in the chart's units. */
  width: number;
}

const STEPS = [1, 2, 5, 10];

/** About `count` steps from below `low` (or zero) to above `high` (or zero). */
export function valueAxis(low: number, high: number, count = 5): ValueAxis {
  const lo = Math.min(0, low);
  const hi = Math.max(0, high, lo === 0 ? 1 : 0);
  const rough = (hi - lo) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, STEPS.find((s) => s * power >= rough)! * power);
  const min = Math.floor(lo / step) * step;
  const max = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = min; v <= max; v += step) ticks.push(v);
  // The labels' font is 12px in the chart's units: about 7 a character, and a gap before the plot.
  const width = Math.max(...ticks.map((v) => formatCompact(v).length)) * 7 + 12;
  return { ticks, min, max, width };
}

/** The grid lines and labels, for a plot from `left` to `right` whose value `v` is drawn at `y(v)`. */
export function ValueAxisMarks({ axis, left, right, y }: { axis: ValueAxis; left: number; right: number; y: (v: number) => number }) {
  return (
    <g class="value-axis">
      {axis.ticks.map((v) => (
        <g>
          <line x1={left} x2={right} y1={y(v)} y2={y(v)} stroke={v === 0 ? '#8c959f' : '#e9ecef'} />
          <text x={left - 6} y={y(v)} text-anchor="end" dominant-baseline="middle" class="bar-sub chart-tick-svg" data-value={String(v)}>
            {formatCompact(v)}
          </text>
        </g>
      ))}
    </g>
  );
}

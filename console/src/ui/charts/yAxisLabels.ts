// The y axis of a uPlot chart with its tick labels formatted by the page (compact numbers, money) and
// written as page text beside the plot, where uPlot put each tick; the axis is made as wide as its
// widest label, so no label is cut off at the chart's edge, and each can be read and measured.
import uPlot from 'uplot';

/** uPlot's own axis font: the labels are measured and written in it. */
export const TICK_FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';

// Rounding of the measured width and the text's own overhang beyond its advance width.
const SLACK_PX = 4;

let measuring: CanvasRenderingContext2D | null | undefined;

/** A label's width in CSS pixels, measured on a canvas of our own so uPlot's font state is left alone. */
function textWidth(text: string): number {
  measuring ??= document.createElement('canvas').getContext('2d');
  if (!measuring) return text.length * 8;
  measuring.font = TICK_FONT;
  return measuring.measureText(text).width;
}

/** How far a label's right edge stands left of the plot: the tick mark and the gap after it. */
function markAndGap(axis: uPlot.Axis): number {
  return (axis.ticks?.show === false ? 0 : (axis.ticks?.size ?? 0)) + (axis.gap ?? 0);
}

/** The axis options and the hooks that place its labels; one pair per chart instance. */
export function yAxisLabels(format: (value: number) => string): { axis: uPlot.Axis; hooks: uPlot.Hooks.Arrays } {
  let ticks: number[] = [];
  let labels: string[] = [];
  let layer: HTMLElement | undefined;
  const axis: uPlot.Axis = {
    stroke: '#495057',
    grid: { stroke: '#e9ecef' },
    // uPlot draws no label on its canvas (null): they are page text, placed after each draw.
    values: (_u, splits) => {
      ticks = splits;
      labels = splits.map(format);
      return splits.map(() => null);
    },
    size: (u, _values, axisIdx) => Math.ceil(Math.max(0, ...labels.map(textWidth))) + markAndGap(u.axes[axisIdx]!) + SLACK_PX,
  };
  const place = (u: uPlot) => {
    layer ??= createLayer(u);
    const right = u.bbox.left / uPlot.pxRatio - markAndGap(u.axes[1]!);
    const top = u.bbox.top / uPlot.pxRatio;
    layer.replaceChildren(...ticks.map((value, i) => tickLabel(value, labels[i] ?? '', u.width - right, top + u.valToPos(value, 'y'))));
  };
  return { axis, hooks: { draw: [place] } };
}

function createLayer(u: uPlot): HTMLElement {
  const layer = document.createElement('div');
  layer.className = 'chart-ticks';
  layer.setAttribute('aria-hidden', 'true');
  u.over.parentElement!.appendChild(layer);
  return layer;
}

/** A label; `data-value` keeps the tick's number, so what a label says can be checked against it. */
function tickLabel(value: number, text: string, right: number, middle: number): HTMLElement {
  const label = document.createElement('span');
  label.className = 'chart-tick';
  label.dataset.value = String(value);
  label.textContent = text;
  label.style.font = TICK_FONT;
  label.style.right = `${right}px`;
  label.style.top = `${middle}px`;
  return label;
}

// The shades of click density the heatmaps share: five steps of a cell's clicks against the
// busiest cell, and the click counts each step stands for, for a legend.

export const DENSITY_COLORS = ['#fcd34d', '#f59e0b', '#ea580c', '#dc2626', '#7f1d1d'];

/** 1 to 5 (0 for no clicks): the share of the busiest cell, rounded up to a fifth. */
export function densityLevel(clicks: number, max: number): number {
  if (clicks <= 0 || max <= 0) return 0;
  return Math.min(DENSITY_COLORS.length, Math.max(1, Math.ceil((clicks / max) * DENSITY_COLORS.length)));
}

/** The legend: each step with its color and the click counts in it; steps no count falls in are left out. */
export function densityLegend(max: number): Array<{ color: string; text: string }> {
  const steps = DENSITY_COLORS.length;
  const legend: Array<{ color: string; text: string }> = [];
  DENSITY_COLORS.forEach((color, i) => {
    const lo = Math.floor((i * max) / steps) + 1;
    const hi = Math.floor(((i + 1) * max) / steps);
    if (lo <= hi) legend.push({ color, text: lo === hi ? `${lo}` : `${lo}–${hi}` });
  });
  return legend;
}

export const clicksText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'click' : 'clicks'}`;

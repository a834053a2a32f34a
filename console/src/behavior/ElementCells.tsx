// Where inside one element its clicks landed: a small 10 × 10 grid of the element's box, each cell
// shaded by its clicks against the element's busiest cell (its count on hover). It never fetches.

import { clicksText, densityLevel, DENSITY_COLORS } from './density';
import type { HeatCell } from './ClickHeatmap';

const SIZE = 60;
const STEP = 10;

export function ElementCells({ cells, element }: { cells: HeatCell[]; element: string }) {
  if (cells.length === 0) return <span class="muted">no offsets</span>;
  const max = Math.max(...cells.map((c) => c.clicks));
  const placed = cells.reduce((s, c) => s + c.clicks, 0);
  const busiest = cells.reduce((a, b) => (b.clicks > a.clicks ? b : a));
  const label = `${clicksText(placed)} placed inside ${element}; most at ${busiest.x}–${busiest.x + STEP}% across, ${busiest.y}–${busiest.y + STEP}% down (${clicksText(busiest.clicks)})`;
  const cell = SIZE / (100 / STEP);
  return (
    <svg viewBox={`0 0 ${SIZE} ${SIZE}`} width={SIZE} height={SIZE} role="img" aria-label={label} class="element-cells" data-testid="element-cells">
      <rect x={0} y={0} width={SIZE} height={SIZE} fill="#f6f8fa" stroke="#8c959f" stroke-width={1} />
      {cells.map((c) => (
        <rect
          class="element-cell"
          x={(c.x / 100) * SIZE}
          y={(c.y / 100) * SIZE}
          width={cell}
          height={cell}
          fill={DENSITY_COLORS[densityLevel(c.clicks, max) - 1]}
          data-x={c.x}
          data-y={c.y}
          data-clicks={c.clicks}
        >
          <title>{`${c.x}–${c.x + STEP}% across, ${c.y}–${c.y + STEP}% down: ${clicksText(c.clicks)}`}</title>
        </rect>
      ))}
    </svg>
  );
}

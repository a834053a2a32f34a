// A page's click heatmap in SVG from plain cells: a page-shaped canvas as wide as a typical window
// of the band and as tall as the lowest click, each cell a rectangle shaded by its clicks against
// the busiest one (its count on hover), the fold of a typical screen dashed, and a legend. The same
// cells are listed in a table for the keyboard and screen readers. It never fetches.

import { useDrawnMark } from '../ui/charts/drawn';
import { NumbersTable } from '../ui/NumbersTable';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { formatNumber } from '../ui/format';
import { clicksText, densityLegend, densityLevel, DENSITY_COLORS } from './density';

export interface HeatCell {
  x: number;
  y: number;
  clicks: number;
}

/** A typical window of the band (px): the canvas is drawn at its width, the fold at its height. */
export const BAND_WINDOW: Record<string, { width: number; height: number }> = {
  mobile: { width: 390, height: 844 },
  tablet: { width: 820, height: 1180 },
  desktop: { width: 1280, height: 800 },
  wide: { width: 1680, height: 1050 },
};

/** On-screen width of the canvas (CSS px): every length of the drawing is scaled from page px to it. */
const SHOWN_WIDTH = 520;
/** Cells listed as they are; more wait behind a disclosure (the drawing is the main view). */
const SHORT_TABLE = 12;

export function ClickHeatmap({ cells, band, xStep, yStep, title }: { cells: HeatCell[]; band: string; xStep: number; yStep: number; title: string }) {
  useDrawnMark([cells, band]);
  const win = BAND_WINDOW[band] ?? BAND_WINDOW.desktop!;
  const width = win.width;
  const height = Math.max(win.height, ...cells.map((c) => c.y + yStep));
  const max = Math.max(0, ...cells.map((c) => c.clicks));
  // Text and strokes in page px, so they read at the same size on every band's canvas.
  const px = width / SHOWN_WIDTH;
  const rule = niceRule(height);
  return (
    <div class="heatmap">
      <div class="heatmap-frame" tabIndex={0} role="region" aria-label={`${title}, scrolls down the page`}>
        <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} class="svg-chart heatmap-canvas" data-testid="heatmap" data-band={band}>
          <rect x={0} y={0} width={width} height={height} fill="#ffffff" stroke="#8c959f" stroke-width={px} />
          {Array.from({ length: Math.floor(height / rule) }, (_, i) => (i + 1) * rule).map((y) => (
            <g>
              <line x1={0} x2={width} y1={y} y2={y} stroke="#eaeef2" stroke-width={px} />
              <text x={4 * px} y={y - 3 * px} font-size={11 * px} fill="#545d68">
                {formatNumber(y)} px
              </text>
            </g>
          ))}
          {cells.map((c) => (
            <rect
              class="heat-cell"
              x={(c.x / 100) * width}
              y={c.y}
              width={(xStep / 100) * width}
              height={yStep}
              fill={DENSITY_COLORS[densityLevel(c.clicks, max) - 1]}
              data-x={c.x}
              data-y={c.y}
              data-clicks={c.clicks}
            >
              <title>{`${c.x}–${c.x + xStep}% across, ${c.y}–${c.y + yStep} px down: ${clicksText(c.clicks)}`}</title>
            </rect>
          ))}
          <line x1={0} x2={width} y1={win.height} y2={win.height} stroke="#3b4cca" stroke-width={1.5 * px} stroke-dasharray={`${6 * px} ${4 * px}`} />
          <text x={width - 4 * px} y={win.height - 4 * px} text-anchor="end" font-size={11 * px} fill="#3b4cca">
            fold of a {win.width}×{win.height} window
          </text>
        </svg>
      </div>
      <div class="legend" data-testid="heatmap-legend">
        <span>Clicks per cell:</span>
        {densityLegend(max).map((l) => (
          <span>
            <span class="swatch" style={{ background: l.color }} aria-hidden="true" /> {l.text}
          </span>
        ))}
      </div>
      <NumbersTable collapsed={cells.length > SHORT_TABLE}>
        <Table label="Cells of the heatmap" testId="heatmap-cells">
          <caption class="visually-hidden">Cells of the heatmap, busiest first</caption>
          <TableHead columns={['Across (% of the window width)', 'Down the page (px)', 'Clicks']} />
          <tbody>
            {cells.map((c) => (
              <tr>
                <td>
                  {c.x}–{c.x + xStep}%
                </td>
                <td>
                  {formatNumber(c.y)}–{formatNumber(c.y + yStep)}
                </td>
                <td>{formatNumber(c.clicks)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      </NumbersTable>
    </div>
  );
}

/** The spacing of the page's px rules: about eight over the page, a round number. */
function niceRule(height: number): number {
  const raw = height / 8;
  const step = [100, 250, 500, 1000, 2500, 5000, 10000].find((s) => s >= raw);
  return step ?? Math.ceil(raw / 10000) * 10000;
}

// The countries table as a map beside it: the countries in the table shaded by their visitors
// (a legend under it), each a button that filters the whole page as its row does (mouse, or Tab
// and Enter or Space), named "Germany, 1,234 visitors". The other countries are drawn unshaded and
// are not buttons. The outlines (worldShapes.ts, Natural Earth) are loaded with this module, as
// a chunk of their own, once a page draws the map. The SVG scales to its column's width.

import { formatNumber } from '../ui/format';
import { legendOf, shadeOf } from './mapShades';
import { WORLD_HEIGHT, WORLD_SHAPES, WORLD_WIDTH } from './worldShapes';

export interface MapRow {
  value: string | null;
  visitors: number;
}

export function WorldMap({ rows, label, onPick }: { rows: MapRow[]; label(code: string): string; onPick(value: string): void }) {
  const byCode = new Map(rows.filter((r) => r.value !== null && r.visitors > 0 && WORLD_SHAPES[r.value]).map((r) => [r.value as string, r.visitors]));
  const most = Math.max(1, ...byCode.values());
  const codes = Object.keys(WORLD_SHAPES);
  return (
    <figure class="web-map">
      <svg viewBox={`0 0 ${WORLD_WIDTH} ${WORLD_HEIGHT}`} role="group" aria-label="Visitors by country, on a map" data-testid="web-map">
        {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: a group of shapes with no tabindex is not focusable; the unshaded countries are only the background. */}
        <g aria-hidden="true">
          {codes
            .filter((code) => !byCode.has(code))
            .map((code) => (
              <path d={WORLD_SHAPES[code]} class="web-map-land" />
            ))}
        </g>
        {/* The shaded countries last, in the table's order, so that their outlines and focus rings are on top. */}
        {rows
          .filter((r) => r.value !== null && byCode.has(r.value))
          .map((r) => {
            const code = r.value as string;
            const name = `${label(code)}, ${formatNumber(r.visitors)} ${r.visitors === 1 ? 'visitor' : 'visitors'}`;
            return (
              <path
                d={WORLD_SHAPES[code]}
                class={`web-map-country web-map-shade-${shadeOf(r.visitors, most)}`}
                role="button"
                tabindex={0}
                aria-label={name}
                data-country={code}
                onClick={() => onPick(code)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' || e.key === ' ') {
                    e.preventDefault();
                    onPick(code);
                  }
                }}
              >
                <title>{name}</title>
              </path>
            );
          })}
      </svg>
      <figcaption>
        {byCode.size === 0 ? (
          <span class="muted">No country of this table is on the map.</span>
        ) : (
          <ul class="web-map-legend" aria-label="Visitors per shade">
            {legendOf(most).map((l) => (
              <li>
                <span class={`web-map-swatch web-map-shade-${l.shade}`} aria-hidden="true" />
                {l.from === l.to ? formatNumber(l.from) : `${formatNumber(l.from)}–${formatNumber(l.to)}`}
              </li>
            ))}
            <li>
              <span class="web-map-swatch web-map-none" aria-hidden="true" />
              not in the table
            </li>
          </ul>
        )}
      </figcaption>
    </figure>
  );
}

// The map's shades: a country's visitors as a fifth of the most any country in the table has, and
// the legend's range of visitors for each shade.

/** Five shades, light to dark (web.css: .web-map-shade-1 to -5, for the map and the legend). */
const STEPS = 5;

/** A country's shade: its visitors' share of the largest count, in fifths (1 to 5). */
export function shadeOf(visitors: number, most: number): number {
  return Math.min(STEPS, Math.max(1, Math.ceil((STEPS * visitors) / most)));
}

/** The legend's ranges of visitors per shade (those holding no whole number left out). */
export function legendOf(most: number): Array<{ shade: number; from: number; to: number }> {
  const out = [];
  for (let shade = 1; shade <= STEPS; shade++) {
    const from = Math.floor((most * (shade - 1)) / STEPS) + 1;
    const to = Math.floor((most * shade) / STEPS);
    if (from <= to) out.push({ shade, from, to });
  }
  return out;
}

// The mark of a bucket still filling (the current hour, today, this week or this month): a hatched
// pattern the bar charts lay over it, a shaded band the line chart draws, and one note under the
// chart in words, so a dip at the end of a series is not read as a fall.
import type { Interval } from '../format';

const PERIOD: Record<Interval, string> = { hour: 'This hour', day: 'Today', week: 'This week', month: 'This month' };

export const HATCH_ID = 'pp-partial-hatch';

/** The SVG pattern a partial bar is covered with. */
export function HatchPattern() {
  return (
    <defs>
      <pattern id={HATCH_ID} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="6" height="6" fill="rgba(255,255,255,0.15)" />
        <line x1="0" y1="0" x2="0" y2="6" stroke="rgba(255,255,255,0.85)" stroke-width="3" />
      </pattern>
    </defs>
  );
}

/** "Today so far", for the legend; nothing when no bucket is partial. */
export function PartialNote({ interval, partial }: { interval: Interval; partial: number }) {
  if (partial < 0) return null;
  return (
    <p class="chart-note" data-testid="partial-note">
      <span class="swatch partial-swatch" aria-hidden="true" /> {PERIOD[interval]} so far: the last {interval === 'day' ? 'day' : interval} is still counting.
    </p>
  );
}

// A dashboard's saved range and filters written out for whoever cannot change them (viewers, and
// anyone who opens a share link): the range as a sentence (a rolling one by its name and today's
// dates), each filter a read-only chip.

import { filterText, type FilterItem } from '../queries/controls/Controls';
import { rangeDates, rangeLabel } from '../ui/dateRanges';
import { todayIn } from '../ui/format';
import type { Dashboard } from './dashboardsApi';

/** A rolling range by its name and its dates on the project's today: "Last 30 days (2026-10-29 to 2026-11-27)". */
export function rollingSentence(range: string | null | undefined, timezone: string): string | undefined {
  const dates = rangeDates(range, todayIn(timezone));
  return dates && range ? `${rangeLabel(range)} (${dates.from} to ${dates.to})` : undefined;
}

export function OverridesNote({ dashboard, timezone }: { dashboard: Pick<Dashboard, 'date_from' | 'date_to' | 'date_range' | 'filters'>; timezone: string }) {
  const filters = ((dashboard.filters ?? []) as FilterItem[]).map(filterText);
  const rolling = rollingSentence(dashboard.date_range, timezone);
  const range = rolling ? `Every tile: ${rolling}` : dashboard.date_from ? `Every tile from ${dashboard.date_from} to ${dashboard.date_to}` : 'Each tile over its own dates';
  return (
    <div class="dash-overrides result-meta" data-testid="dash-overrides">
      <span>{range}</span>
      {filters.length > 0 && (
        <>
          <span aria-hidden="true">·</span>
          <span id="dash-filters-label">filtered by</span>
          <ul class="chip-list" aria-labelledby="dash-filters-label" data-testid="dash-filters">
            {filters.map((text) => (
              <li>
                <span class="chip readonly">{text}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

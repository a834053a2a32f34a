// A dashboard's saved range and filters written out for whoever cannot change them (viewers, and
// anyone who opens a share link): the range as a sentence, each filter a read-only chip.

import { filterText, type FilterItem } from '../queries/controls/Controls';
import type { Dashboard } from './dashboardsApi';

export function OverridesNote({ dashboard }: { dashboard: Pick<Dashboard, 'date_from' | 'date_to' | 'filters'> }) {
  const filters = ((dashboard.filters ?? []) as FilterItem[]).map(filterText);
  return (
    <div class="dash-overrides result-meta" data-testid="dash-overrides">
      <span>{dashboard.date_from ? `Every tile from ${dashboard.date_from} to ${dashboard.date_to}` : 'Each tile over its own dates'}</span>
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

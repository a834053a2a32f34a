// Paths: the semantic checks the schema cannot state, each refusing with ValidationError (422).

import { checkFilters } from '../../engine/filters.js';
import { ValidationError } from '../../ground/errors.js';
import { checkRange } from '../ranges.js';
import type { PathsParams } from './types.js';

export function validatePaths(p: PathsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  if (p.direction === 'after' && p.start_event !== undefined) {
    throw new ValidationError('start_event begins routes that lead to the selected event: it needs direction=before (use end_event with after)', 'start_event');
  }
  if (p.direction === 'before' && p.end_event !== undefined) {
    throw new ValidationError('end_event ends routes that leave the selected event: it needs direction=after (use start_event with before)', 'end_event');
  }
  const excluded = new Set(p.exclude_events ?? []);
  for (const field of ['selected_event', 'start_event', 'end_event'] as const) {
    const name = p[field];
    if (name !== undefined && excluded.has(name)) throw new ValidationError(`${field} ${JSON.stringify(name)} is also in exclude_events`, field);
  }
}

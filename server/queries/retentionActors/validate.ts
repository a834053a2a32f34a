// Retention actors: the semantic checks the schema cannot state, each refusing with ValidationError
// (422).

import { bucketsOf } from '../../engine/dates.js';
import { checkFilters } from '../../engine/filters.js';
import { ValidationError } from '../../ground/errors.js';
import { checkRange } from '../ranges.js';
import type { RetentionActorsParams } from './types.js';

export function validateRetentionActors(p: RetentionActorsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  checkCohort(p);
  if (p.period > p.periods) throw new ValidationError(`period ${p.period} is past periods ${p.periods}`, 'period');
}

function checkCohort(p: RetentionActorsParams): void {
  if (!bucketsOf(p.date_from, p.date_to, p.granularity).includes(p.cohort)) {
    const hint = p.granularity === 'week' ? ' (week cohorts are labelled by their Monday)' : '';
    throw new ValidationError(`cohort ${p.cohort} is not a ${p.granularity} cohort of ${p.date_from}..${p.date_to}${hint}`, 'cohort');
  }
}

// Activation drivers: the semantic checks the schema cannot state, each refusing with
// ValidationError (422).

import { checkFilters } from '../../engine/filters.js';
import { ValidationError } from '../../ground/errors.js';
import { checkRange } from '../ranges.js';
import { windowsOf, type ActivationDriversParams } from './types.js';

export function validateActivationDrivers(p: ActivationDriversParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
  if (p.outcome.to_day <= p.outcome.from_day) {
    throw new ValidationError(`outcome.to_day ${p.outcome.to_day} must be after outcome.from_day ${p.outcome.from_day}`, 'outcome.to_day');
  }
  (p.behavior_windows_days ?? []).forEach((w, i) => {
    if (w > p.outcome.from_day) {
      throw new ValidationError(
        `behavior_windows_days[${i}] (${w} days) overlaps the outcome window, which starts on day ${p.outcome.from_day}: every behavior window must end before it`,
        `behavior_windows_days[${i}]`,
      );
    }
  });
  if (windowsOf(p).length === 0) {
    throw new ValidationError(`no behavior window ends before outcome.from_day ${p.outcome.from_day}: give behavior_windows_days or a later from_day`, 'outcome.from_day');
  }
}

// Funnel: the semantic checks the schema cannot state, each refusing with ValidationError (422).

import { checkFilters } from '../../engine/filters.js';
import { ValidationError } from '../../ground/errors.js';
import { checkCompare, checkRange } from '../ranges.js';
import type { FunnelParams } from './types.js';

export function validateFunnel(p: FunnelParams): void {
  checkRange(p.date_from, p.date_to);
  checkCompare(p.compare);
  p.steps.forEach((s, i) => checkFilters(s.filters, `steps[${i}].filters`));
  checkRevenueNeedsActors(p);
  checkDroppedStep(p);
}

function checkRevenueNeedsActors(p: FunnelParams): void {
  if (p.value === 'revenue' && p.count_by !== 'actors') {
    throw new ValidationError(`value=revenue needs count_by=actors, got count_by=${p.count_by}`, 'value');
  }
}

function checkDroppedStep(p: FunnelParams): void {
  if (p.dropped_at_step === undefined) {
    if (p.dropped_cursor !== undefined) throw new ValidationError('dropped_cursor needs dropped_at_step', 'dropped_cursor');
    return;
  }
  if (p.count_by !== 'actors') {
    throw new ValidationError(`dropped_at_step needs count_by=actors, got count_by=${p.count_by}`, 'dropped_at_step');
  }
  const last = p.steps.length - 1;
  if (p.dropped_at_step < 1 || p.dropped_at_step > last) {
    throw new ValidationError(`dropped_at_step ${p.dropped_at_step} must be between 1 and ${last} (a step that has a next step)`, 'dropped_at_step');
  }
}

// Correlations: the semantic checks the schema cannot state, each refusing with ValidationError
// (422).

import { checkFilters } from '../../engine/filters.js';
import { checkRange } from '../ranges.js';
import type { CorrelationsParams } from './types.js';

export function validateCorrelations(p: CorrelationsParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

// Retention: the semantic checks the schema cannot state, each refusing with ValidationError (422).

import { checkFilters } from '../../engine/filters.js';
import { checkCompare, checkRange } from '../ranges.js';
import type { RetentionParams } from './types.js';

export function validateRetention(p: RetentionParams): void {
  checkRange(p.date_from, p.date_to);
  checkCompare(p.compare);
  checkFilters(p.filters);
}

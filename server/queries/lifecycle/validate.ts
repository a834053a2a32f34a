// Lifecycle: the semantic checks the schema cannot state, each refusing with ValidationError (422).

import { checkFilters } from '../../engine/filters.js';
import { checkRange } from '../ranges.js';
import type { LifecycleParams } from './types.js';

export function validateLifecycle(p: LifecycleParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

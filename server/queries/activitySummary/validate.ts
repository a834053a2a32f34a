// Activity summary: the semantic checks the schema cannot state, each refusing with ValidationError
// (422).

import { checkDate } from '../ranges.js';
import type { ActivitySummaryParams } from './types.js';

export function validateActivitySummary(p: ActivitySummaryParams): void {
  checkDate(p.date_to, 'date_to');
}

// Segmentation: the semantic checks the schema cannot state, each refusing with ValidationError
// (422).

import { checkFilters } from '../../engine/filters.js';
import { checkCompare, checkRange } from '../ranges.js';
import type { SegmentationParams } from './types.js';

export function validateSegmentation(p: SegmentationParams): void {
  checkRange(p.date_from, p.date_to);
  checkCompare(p.compare);
  checkFilters(p.filters);
}

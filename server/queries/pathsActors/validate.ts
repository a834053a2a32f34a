// Paths actors: the paths query's checks, and that the node (or link) names a step of the graph;
// each refusal a ValidationError (422).

import { ValidationError } from '../../ground/errors.js';
import { validatePaths } from '../paths/validate.js';
import type { PathsActorsParams } from './types.js';

export function validatePathsActors(p: PathsActorsParams): void {
  validatePaths(p);
  // Steps run 0…depth after the anchor, -depth…0 before it.
  const [low, high] = p.direction === 'after' ? [0, p.depth] : [-p.depth, 0];
  if (p.step < low || p.step > high) throw new ValidationError(`step ${p.step} is outside the graph's steps ${low}..${high}`, 'step');
  if (p.next_item !== undefined && p.step === high) throw new ValidationError(`next_item names a link from step ${p.step}, the graph's last step`, 'next_item');
}

// Paths: the routes units (actors, or their sessions) take after or before a selected event, as
// the most frequent whole routes and as a Sankey graph whose every step adds up. SQL builds each
// unit's route (items, repeats collapsed, anchored, cut); the routes come back grouped with their
// counts, and the graph is folded from them here, step by step away from the anchor.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { pathsDoc } from './doc.js';
import { runPaths } from './run.js';
import { shapePaths } from './shape.js';
import type { PathsParams } from './types.js';
import { validatePaths } from './validate.js';

export const pathsRoute: QueryRoute<PathsParams> = {
  name: 'paths',
  path: 'paths',
  doc: pathsDoc,
  validate: validatePaths,
  entitlements: (p) => (p.mode === 'session' ? ['actor_drilldown'] : []),
  execute: async (engine, p, ctx) => shapePaths(await runPaths(engine, p, ctx), p),
};

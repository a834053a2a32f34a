// Activation drivers: which early behaviors ("did X at least k times within w days of the anchor")
// go with being retained later. Actors whose outcome window has not closed are left out, not
// counted as lost. A hash of the actor id splits actors into discovery (70%), where each
// candidate's best window and threshold are chosen, and validation (30%), where that one choice is
// judged once: a driver found and judged on the same actors looks stronger than it is.
//
// The route: the schema-checked parameters are validated, run on the event store and shaped.

import type { QueryRoute } from '../queryRoute.js';
import { activationDriversDoc } from './doc.js';
import { runActivationDrivers } from './run.js';
import { shapeActivationDrivers } from './shape.js';
import type { ActivationDriversParams } from './types.js';
import { validateActivationDrivers } from './validate.js';

export const activationDriversRoute: QueryRoute<ActivationDriversParams> = {
  name: 'activation_drivers',
  path: 'activation-drivers',
  doc: activationDriversDoc,
  validate: validateActivationDrivers,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeActivationDrivers(await runActivationDrivers(engine, p, ctx), p, ctx),
};

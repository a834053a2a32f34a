// What an engine answers for a feature it does not serve yet: 501 `engine_unsupported` naming the
// feature, never a wrong number. A builder is called before any statement runs, so a request for
// such a feature is answered without reaching the store.

import { AppError } from '../ground/errors.js';

/** 501 `engine_unsupported`: the installation's event engine does not answer this feature yet. */
export class EngineUnsupportedError extends AppError {
  constructor(feature: string) {
    super(501, 'engine_unsupported', `${feature} is not available on this installation's event engine yet (docs/scale-out.md lists what is)`, { feature });
  }
}

/** Throws 501 `engine_unsupported` for `feature`. */
export function unsupported(feature: string): never {
  throw new EngineUnsupportedError(feature);
}

/** A statement builder (or any function) that answers 501 `engine_unsupported` for `feature` when called. */
export function unsupportedBuilder<F>(feature: string): F {
  return (() => unsupported(feature)) as F;
}

/** `shape` (a module of builders) with every function answering 501 `engine_unsupported` for `feature`. */
export function unsupportedLike<M extends object>(shape: M, feature: string): M {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(shape)) out[name] = typeof value === 'function' ? unsupportedBuilder(feature) : value;
  return out as M;
}

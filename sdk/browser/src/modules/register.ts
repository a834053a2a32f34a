// How a module announces itself to the core: through the global hook, declaring the
// version it was built as. The core decides whether to start it.
import type { ModuleContext, ModuleName } from '../shared/types.js';
import { TRACKER_VERSION } from '../../version.js';

export function register(name: ModuleName, start: (ctx: ModuleContext) => void): void {
  const hook = window.__pp_module;
  if (typeof hook === 'function') hook({ name, version: TRACKER_VERSION, start });
}

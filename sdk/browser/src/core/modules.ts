// Loads the optional modules (replay, diagnostics, picker) of exactly this core's version,
// each with the integrity value the build wrote into the core, and starts the ones that
// register with a matching version. Anything else is ignored without a trace on the page.
import type { ModuleContext, ModuleName, ModuleRegistration } from '../shared/types.js';
import { TRACKER_VERSION } from '../../version.js';
import { log } from './util.js';

// Replaced by the build with {replay, diagnostics, picker} → "sha384-…".
declare const __PP_INTEGRITY__: Record<ModuleName, string>;

const CORE_PATH = `sdk/browser/${TRACKER_VERSION}/tracker.js`;

// Beside the core when it is served from its versioned path; otherwise (renamed, flattened,
// /v1/t.js) at the versioned path of the core's own version at the root of its origin.
export function moduleBase(coreSrc: string | undefined, host: string): string {
  if (coreSrc) {
    try {
      const u = new URL(coreSrc, location.href);
      if (u.pathname.endsWith('/' + CORE_PATH) || u.pathname === '/' + CORE_PATH) {
        return u.origin + u.pathname.slice(0, -'tracker.js'.length);
      }
      return `${u.origin}/v1/sdk/browser/${TRACKER_VERSION}/`;
    } catch {
      // fall through to the configured host
    }
  }
  return `${host}/v1/sdk/browser/${TRACKER_VERSION}/`;
}

export class ModuleLoader {
  private readonly wanted = new Set<ModuleName>();
  private readonly started = new Set<ModuleName>();

  constructor(
    private readonly base: string,
    private readonly context: () => ModuleContext,
  ) {
    window.__pp_module = (m: ModuleRegistration) => this.register(m);
  }

  load(name: ModuleName): void {
    if (this.wanted.has(name)) return;
    this.wanted.add(name);
    const s = document.createElement('script');
    s.src = `${this.base}${name}.js`;
    s.integrity = __PP_INTEGRITY__[name];
    s.crossOrigin = 'anonymous';
    s.async = true;
    s.onerror = () => log(`module ${name} failed to load (network or integrity)`);
    (document.head || document.documentElement).appendChild(s);
  }

  private register(m: ModuleRegistration): void {
    if (!m || m.version !== TRACKER_VERSION) {
      log('module of another version discarded', m && m.name, m && m.version);
      return;
    }
    if (!this.wanted.has(m.name) || this.started.has(m.name) || typeof m.start !== 'function') return;
    this.started.add(m.name);
    try {
      m.start(this.context());
    } catch (err) {
      log(`module ${m.name} failed to start`, err);
    }
  }
}

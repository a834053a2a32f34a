// The shell sections of the bootstrap response beyond the token response (`license` on-prem; `billing`
// and `usage` in the cloud variant). A subsystem that has one registers a function here; a function
// that has nothing to say returns undefined and its section is left out.

import type { Services } from './services.js';

export type BootstrapSectionName = 'license' | 'billing' | 'usage';

export interface BootstrapContext {
  userId: number;
  orgId: number;
}

export type BootstrapSection = (services: Services, context: BootstrapContext) => Record<string, unknown> | undefined;

const sections = new Map<BootstrapSectionName, BootstrapSection>();

/** Registers (or replaces) the provider of one section, e.g. `registerBootstrapSection('license', licenseSection)`. */
export function registerBootstrapSection(name: BootstrapSectionName, provider: BootstrapSection): void {
  sections.set(name, provider);
}

export function bootstrapSections(services: Services, context: BootstrapContext): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, provider] of sections) {
    const value = provider(services, context);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

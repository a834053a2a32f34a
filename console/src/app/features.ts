// The plan-gated features, what each unlocks, and whether the organization has one: on-prem the
// license grants them, in the cloud the organization's plan does (the bootstrap's `billing` section).

import type { SessionState } from './session';

export const FEATURES: Record<string, { title: string; unlocks: string }> = {
  actor_drilldown: { title: 'People drill-down', unlocks: 'the people who dropped off at a funnel step, the people of a retention cell, paths counted per session, and session recordings' },
  saved_segments: { title: 'Saved segments', unlocks: 'saving filters as segments and using them in every insight' },
};

type Grantor = Pick<SessionState, 'license' | 'billing'>;

export function hasFeature(session: Grantor, feature: string): boolean {
  const granted = session.billing ? session.billing.entitlements : session.license?.features;
  return Array.isArray(granted) && (granted as string[]).includes(feature);
}

/** How a locked feature is described: what grants features here. */
export const lockedBy = (session: Grantor): string => (session.billing ? 'not in your plan' : 'needs a license');

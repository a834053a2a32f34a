// The cloud plans: what each unlocks and how many events a month it takes. Quotas come from the
// configuration; the entitlements are the same names a license grants on-prem.

import type { Config } from '../ground/config.js';
import type { Entitlement } from '../../license/entitlements.js';

export const PLANS = ['free', 'growth', 'scale'] as const;
export type Plan = (typeof PLANS)[number];

const PLAN_ENTITLEMENTS: Record<Plan, readonly Entitlement[]> = {
  free: [],
  growth: ['actor_drilldown', 'saved_segments'],
  scale: ['actor_drilldown', 'saved_segments'],
};

export interface PlanSummary {
  plan: Plan;
  entitlements: Entitlement[];
  events_per_month: number;
}

export function isPlan(value: unknown): value is Plan {
  return (PLANS as readonly unknown[]).includes(value);
}

export function planEntitlements(plan: Plan): ReadonlySet<Entitlement> {
  return new Set(PLAN_ENTITLEMENTS[plan]);
}

export function monthlyQuota(config: Config, plan: Plan): number {
  return config.billing[`${plan}_events_per_month`];
}

export function planCatalog(config: Config): PlanSummary[] {
  return PLANS.map((plan) => ({ plan, entitlements: [...PLAN_ENTITLEMENTS[plan]], events_per_month: monthlyQuota(config, plan) }));
}

// The plan-gated features a license can grant, and what each unlocks, for the pages that show a
// locked feature and the organization's license panel.

export const FEATURES: Record<string, { title: string; unlocks: string }> = {
  actor_drilldown: { title: 'People drill-down', unlocks: 'the people who dropped off at a funnel step, the people of a retention cell, and paths counted per session' },
  saved_segments: { title: 'Saved segments', unlocks: 'saving filters as segments and using them in every insight' },
};

export function hasFeature(license: Record<string, unknown> | undefined, feature: string): boolean {
  return Array.isArray(license?.features) && (license.features as string[]).includes(feature);
}

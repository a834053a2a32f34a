// The insight kinds, one per query route a page asks and an insight saves: each kind's name (the
// route below /queries/), its label, where its page is and its URL ⇄ request codec. Pure, so the
// tests read it as the console does; registry.tsx adds each kind's page and answer view.

import type { InsightCodec, UrlParams } from './codec.js';
import { activityCodec } from './activity/codec.js';
import { funnelCodec, isFunnelEmpty } from './funnel/codec.js';
import { retentionCodec, isRetentionEmpty } from './retention/codec.js';
import { segmentationCodec, isSegmentationEmpty } from './segmentation/codec.js';
import { lifecycleCodec, isLifecycleEmpty } from './lifecycle/codec.js';
import { stickinessCodec, isStickinessEmpty } from './stickiness/codec.js';
import { pathsCodec } from './paths/codec.js';
import { correlationsCodec, isCorrelationsEmpty } from './correlations/codec.js';
import { activationDriversCodec, isActivationDriversEmpty } from './activationDrivers/codec.js';
import { revenueCodec, isRevenueEmpty } from './revenue/codec.js';
import { webCodec, isWebEmpty } from '../web/codec.js';
import type { QueryAnswer, QueryBody, QueryName } from './queryTypes.js';

export interface InsightKind<N extends QueryName = QueryName> {
  kind: N;
  /** The kind's name on a saved insight, a tile and a share link. */
  label: string;
  /** The navigation's link to its page. */
  navLabel: string;
  /** The page's path below /projects/:projectId ('' for the project's first screen). */
  path: string;
  codec: InsightCodec<QueryBody<N>>;
  /** An answer with nothing to draw, said in words instead. */
  isEmpty?(data: QueryAnswer<N>): boolean;
}

const kind = <N extends QueryName>(entry: InsightKind<N>) => entry;

/** In the navigation's order. */
export const INSIGHT_KINDS = [
  kind({ kind: 'activity-summary', label: 'Activity', navLabel: 'Activity', path: '', codec: activityCodec }),
  kind({ kind: 'funnel', label: 'Funnel', navLabel: 'Funnels', path: '/insights/funnel', codec: funnelCodec, isEmpty: isFunnelEmpty }),
  kind({ kind: 'retention', label: 'Retention', navLabel: 'Retention', path: '/insights/retention', codec: retentionCodec, isEmpty: isRetentionEmpty }),
  kind({ kind: 'segmentation', label: 'Segmentation', navLabel: 'Segmentation', path: '/insights/segmentation', codec: segmentationCodec, isEmpty: isSegmentationEmpty }),
  kind({ kind: 'lifecycle', label: 'Lifecycle', navLabel: 'Lifecycle', path: '/insights/lifecycle', codec: lifecycleCodec, isEmpty: isLifecycleEmpty }),
  kind({ kind: 'stickiness', label: 'Stickiness', navLabel: 'Stickiness', path: '/insights/stickiness', codec: stickinessCodec, isEmpty: isStickinessEmpty }),
  kind({ kind: 'paths', label: 'Paths', navLabel: 'Paths', path: '/insights/paths', codec: pathsCodec }),
  kind({ kind: 'correlations', label: 'Correlations', navLabel: 'Correlations', path: '/insights/correlations', codec: correlationsCodec, isEmpty: isCorrelationsEmpty }),
  kind({
    kind: 'activation-drivers',
    label: 'Activation drivers',
    navLabel: 'Activation drivers',
    path: '/insights/activation-drivers',
    codec: activationDriversCodec,
    isEmpty: isActivationDriversEmpty,
  }),
  kind({ kind: 'revenue-summary', label: 'Revenue', navLabel: 'Revenue', path: '/insights/revenue', codec: revenueCodec, isEmpty: isRevenueEmpty }),
  kind({ kind: 'web', label: 'Web', navLabel: 'Web analytics', path: '/web', codec: webCodec, isEmpty: isWebEmpty }),
] as const;

export type InsightKindName = (typeof INSIGHT_KINDS)[number]['kind'];

/** A kind whose body and answer are read without their types. */
// biome-ignore lint/suspicious/noExplicitAny: the list of every kind, each with its own body and answer types
export type AnyInsightKind = Omit<InsightKind, 'codec' | 'isEmpty'> & { codec: InsightCodec<any, any>; isEmpty?(data: unknown): boolean };

/**
 * A kind by its name, typed loosely: a saved insight's query is its kind's request body as the
 * server checked and stored it, read back without its type.
 */
export function kindOf(name: string): AnyInsightKind | undefined {
  return INSIGHT_KINDS.find((k) => k.kind === name);
}

export const kindLabel = (name: string): string => kindOf(name)?.label ?? name;

/** A URL query as text, its values encoded as useUrlState writes them (keeping `~` readable). */
export function searchOf(params: UrlParams): string {
  return Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v!)}`)
    .join('&');
}

/**
 * The insight page showing a saved query, with its parameters in the URL as the page writes them,
 * its rolling range (if any) standing for its dates, and `saved` naming the insight, so the page
 * can save its changes back to it.
 */
export function insightPageUrl(projectId: number, name: string, query: object, savedId?: number, dateRange?: string | null): string | undefined {
  const known = kindOf(name);
  if (!known) return undefined;
  const params = { ...known.codec.toUrl(query, dateRange), ...(savedId === undefined ? {} : { saved: String(savedId) }) };
  const search = searchOf(params);
  return `/projects/${projectId}${known.path}${search ? `?${search}` : ''}`;
}

// The one list of insight kinds the console reads: the router's routes and the navigation's links
// (each kind's page), saved insights' links back to their page (its codec), and the answers of
// saved insights, dashboard tiles and share links (its view, the component its page draws). Each
// kind's folder holds its codec (codec.ts), its page (Page.tsx) and its view (View.tsx); pages and
// views load when first drawn, so the first screen carries neither.
//
// To add an insight page: a folder with those three files, its entry in kinds.ts (name, labels,
// path, codec) and its page and view below.

import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { lazy } from 'preact-iso';
import { Empty, Loading } from '../ui/states';
import { INSIGHT_KINDS, kindOf, type AnyInsightKind, type InsightKindName } from './kinds';
import type { QueryAnswer } from './queryTypes';

export { insightPageUrl, kindLabel } from './kinds';

/** A kind's answer drawn for a saved query: the query as saved (its kind's request body) and the answer. */
// biome-ignore lint/suspicious/noExplicitAny: the saved body is checked by its kind's codec, not here
type ViewProps<N extends InsightKindName> = { query: any; data: QueryAnswer<N> };

interface Parts<N extends InsightKindName> {
  Page: ComponentType;
  View: ComponentType<ViewProps<N>>;
}

/**
 * A component whose code loads when first drawn, showing a loading note meanwhile. (preact-iso's
 * lazy suspends the route instead, right for a page, not for one tile of a drawn dashboard.)
 */
function loadedWhenDrawn<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  return function Loaded(props: P) {
    const [, setReady] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let mounted = true;
      loading ??= load().then((c) => (loaded = c));
      void loading.then(() => mounted && setReady(true));
      return () => void (mounted = false);
    }, []);
    const Component = loaded;
    return Component ? <Component {...props} /> : <Loading />;
  };
}

const PARTS: { [N in InsightKindName]: Parts<N> } = {
  'activity-summary': {
    Page: lazy(() => import('./activity/Page').then((m) => m.Overview)),
    View: loadedWhenDrawn(() =>
      import('./activity/View').then((m) => ({ data }: ViewProps<'activity-summary'>) => <m.ActivityAnswer data={data} />),
    ),
  },
  funnel: {
    Page: lazy(() => import('./funnel/Page').then((m) => m.Funnel)),
    View: loadedWhenDrawn(() =>
      import('./funnel/View').then((m) => ({ query, data }: ViewProps<'funnel'>) => <m.FunnelAnswer query={query} data={data} />),
    ),
  },
  retention: {
    Page: lazy(() => import('./retention/Page').then((m) => m.Retention)),
    View: loadedWhenDrawn(() =>
      import('./retention/View').then((m) => ({ query, data }: ViewProps<'retention'>) => <m.RetentionAnswer query={query} data={data} />),
    ),
  },
  segmentation: {
    Page: lazy(() => import('./segmentation/Page').then((m) => m.Segmentation)),
    View: loadedWhenDrawn(() =>
      import('./segmentation/View').then((m) => ({ query, data }: ViewProps<'segmentation'>) => <m.SegmentationAnswer query={query} data={data} />),
    ),
  },
  lifecycle: {
    Page: lazy(() => import('./lifecycle/Page').then((m) => m.Lifecycle)),
    View: loadedWhenDrawn(() =>
      import('./lifecycle/View').then((m) => ({ query, data }: ViewProps<'lifecycle'>) => <m.LifecycleAnswer query={query} data={data} />),
    ),
  },
  stickiness: {
    Page: lazy(() => import('./stickiness/Page').then((m) => m.Stickiness)),
    View: loadedWhenDrawn(() =>
      import('./stickiness/View').then((m) => ({ data }: ViewProps<'stickiness'>) => <m.StickinessAnswer data={data} />),
    ),
  },
  paths: {
    Page: lazy(() => import('./paths/Page').then((m) => m.Paths)),
    View: loadedWhenDrawn(() =>
      import('./paths/View').then((m) => ({ query, data }: ViewProps<'paths'>) => <m.PathsAnswer query={query} data={data} />),
    ),
  },
  correlations: {
    Page: lazy(() => import('./correlations/Page').then((m) => m.Correlations)),
    View: loadedWhenDrawn(() =>
      import('./correlations/View').then((m) => ({ query, data }: ViewProps<'correlations'>) => <m.CorrelationsAnswer query={query} data={data} />),
    ),
  },
  'activation-drivers': {
    Page: lazy(() => import('./activationDrivers/Page').then((m) => m.ActivationDrivers)),
    View: loadedWhenDrawn(() =>
      import('./activationDrivers/View').then((m) => ({ data }: ViewProps<'activation-drivers'>) => <m.ActivationDriversAnswer data={data} />),
    ),
  },
  'revenue-summary': {
    Page: lazy(() => import('./revenue/Page').then((m) => m.Revenue)),
    View: loadedWhenDrawn(() =>
      import('./revenue/View').then((m) => ({ data }: ViewProps<'revenue-summary'>) => <m.RevenueAnswer data={data} />),
    ),
  },
  web: {
    Page: lazy(() => import('../web/Page').then((m) => m.WebAnalytics)),
    View: loadedWhenDrawn(() =>
      import('../web/View').then((m) => ({ data }: ViewProps<'web'>) => <m.WebAnswer data={data} />),
    ),
  },
};

// biome-ignore lint/suspicious/noExplicitAny: the list of every kind, each with its own body and answer types
export type RegisteredKind = AnyInsightKind & Parts<any>;

/** Every insight kind with its page and view, in the navigation's order. */
export const INSIGHTS: RegisteredKind[] = INSIGHT_KINDS.map((k) => ({ ...k, ...PARTS[k.kind] }));

/** A saved insight's answer, drawn by its insight page's own view. */
export function AnswerView({ kind, query, data }: { kind: string; query: object; data: unknown }) {
  const known = kindOf(kind);
  if (!known) return <Empty title={`This console cannot draw a ${kind} answer`} />;
  if (known.isEmpty?.(data)) return <Empty title="No events match in this range">Widen the dates or loosen the filters.</Empty>;
  // biome-ignore lint/suspicious/noExplicitAny: the kind was looked up by name; its body type is its own
  const { View } = PARTS[known.kind as InsightKindName] as Parts<any>;
  return <View query={query} data={data} />;
}

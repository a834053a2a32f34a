// Each kind of saved insight: its name, the insight page that edits it (the saved query turned back
// into that page's URL), and the view of its answer, the same component the insight page draws.

import type { ComponentChildren } from 'preact';
import { FunnelAnswer, isFunnelEmpty } from '../queries/Funnel';
import { RetentionAnswer, isRetentionEmpty } from '../queries/Retention';
import { SegmentationAnswer, isSegmentationEmpty } from '../queries/Segmentation';
import { LifecycleAnswer, isLifecycleEmpty } from '../queries/Lifecycle';
import { StickinessAnswer, isStickinessEmpty } from '../queries/Stickiness';
import { ActivityAnswer } from '../queries/Overview';
import { RevenueAnswer, isRevenueEmpty } from '../queries/Revenue';
import { PathsAnswer } from '../queries/Paths';
import { CorrelationsAnswer, isCorrelationsEmpty } from '../queries/Correlations';
import { ActivationDriversAnswer, isActivationDriversEmpty } from '../queries/ActivationDrivers';
import { filterText, type FilterItem } from '../queries/controls/Controls';
import { Empty } from '../ui/states';
import { encodeList } from '../ui/listCodec';

/** A saved query body, as stored: the insight page's request body. */
type Query = Record<string, any>;

interface KindView {
  label: string;
  /** The insight page's path below the project and its URL parameters for the query. */
  page(query: Query): [string, Record<string, string | string[] | undefined>];
  view(query: Query, data: any): ComponentChildren;
  isEmpty?(data: any): boolean;
}

const filterParams = (filters?: FilterItem[]) => (filters?.length ? filters.map(filterText) : undefined);
const range = (q: Query) => ({ from: q.date_from, to: q.date_to });
const compare = (q: Query) => (q.compare ? 'previous' : undefined);

const KINDS: Record<string, KindView> = {
  funnel: {
    label: 'Funnel',
    page: (q) => [
      '/insights/funnel',
      {
        steps: (q.steps ?? []).map((s: { event: string }) => s.event),
        ...range(q),
        window: q.window_hours === undefined ? undefined : String(q.window_hours),
        count_by: q.count_by,
        breakdown: q.breakdown?.property,
        compare: compare(q),
        value: q.value,
        filter: filterParams(q.steps?.[0]?.filters),
      },
    ],
    view: (q, d) => <FunnelAnswer query={q} data={d} />,
    isEmpty: isFunnelEmpty,
  },
  retention: {
    label: 'Retention',
    page: (q) => [
      '/insights/retention',
      { start: q.start_event, return: q.return_event, ...range(q), granularity: q.granularity, periods: q.periods === undefined ? undefined : String(q.periods), value: q.value, compare: compare(q), filter: filterParams(q.filters) },
    ],
    view: (q, d) => <RetentionAnswer query={q} data={d} />,
    isEmpty: isRetentionEmpty,
  },
  segmentation: {
    label: 'Segmentation',
    page: (q) => ['/insights/segmentation', { event: q.event, metric: q.metric, interval: q.interval, ...range(q), group_by: q.group_by?.property, compare: compare(q), filter: filterParams(q.filters) }],
    view: (q, d) => <SegmentationAnswer query={q} data={d} />,
    isEmpty: isSegmentationEmpty,
  },
  lifecycle: {
    label: 'Lifecycle',
    page: (q) => ['/insights/lifecycle', { ...range(q), interval: q.interval, filter: filterParams(q.filters) }],
    view: (q, d) => <LifecycleAnswer query={q} data={d} />,
    isEmpty: isLifecycleEmpty,
  },
  stickiness: {
    label: 'Stickiness',
    page: (q) => ['/insights/stickiness', { event: q.event, ...range(q), filter: filterParams(q.filters) }],
    view: (_q, d) => <StickinessAnswer data={d} />,
    isEmpty: isStickinessEmpty,
  },
  'activity-summary': {
    label: 'Activity',
    page: (q) => ['', { date: q.date_to, event: q.event }],
    view: (_q, d) => <ActivityAnswer data={d} />,
  },
  'revenue-summary': {
    label: 'Revenue',
    page: (q) => ['/insights/revenue', { ...range(q), filter: filterParams(q.filters) }],
    view: (_q, d) => <RevenueAnswer data={d} />,
    isEmpty: isRevenueEmpty,
  },
  paths: {
    label: 'Paths',
    page: (q) => [
      '/insights/paths',
      {
        event: q.selected_event,
        direction: q.direction,
        depth: q.depth === undefined ? undefined : String(q.depth),
        mode: q.mode === 'session' ? 'session' : undefined,
        start: q.start_event,
        end: q.end_event,
        min_count: q.min_count === undefined ? undefined : String(q.min_count),
        top_n: q.top_n === undefined ? undefined : String(q.top_n),
        exclude: q.exclude_events,
        breakdown: q.breakdown?.property,
        ...range(q),
        filter: filterParams(q.filters),
      },
    ],
    view: (q, d) => <PathsAnswer query={q} data={d} />,
  },
  correlations: {
    label: 'Correlations',
    page: (q) => ['/insights/correlations', { target: q.target_event, ...range(q), min_n: q.min_n === undefined ? undefined : String(q.min_n), managed: q.exclude_managed === false ? 'include' : undefined, filter: filterParams(q.filters) }],
    view: (q, d) => <CorrelationsAnswer query={q} data={d} />,
    isEmpty: isCorrelationsEmpty,
  },
  'activation-drivers': {
    label: 'Activation drivers',
    page: (q) => [
      '/insights/activation-drivers',
      {
        anchor: q.anchor_event,
        outcome: q.outcome?.event,
        from_day: q.outcome?.from_day === undefined ? undefined : String(q.outcome.from_day),
        to_day: q.outcome?.to_day === undefined ? undefined : String(q.outcome.to_day),
        ...range(q),
        filter: filterParams(q.filters),
      },
    ],
    view: (_q, d) => <ActivationDriversAnswer data={d} />,
    isEmpty: isActivationDriversEmpty,
  },
};

export const kindLabel = (kind: string): string => KINDS[kind]?.label ?? kind;

/**
 * The insight page showing a saved query, with its parameters in the URL as the page writes them,
 * and `saved` naming the insight, so the page can save its changes back to it.
 */
export function insightPageUrl(projectId: number, kind: string, query: Query, savedId?: number, dateRange?: string | null): string | undefined {
  const known = KINDS[kind];
  if (!known) return undefined;
  const [path, page] = known.page(query);
  // A rolling range stands for the dates, which the page works out on its own today.
  // (The overview's one `date` is today when rolling, which it is without one.)
  const dated = dateRange ? { ...page, range: dateRange, from: undefined, to: undefined, date: undefined } : page;
  const params = savedId === undefined ? dated : { ...dated, saved: String(savedId) };
  // Written as useUrlState writes them: lists through the list codec, empty scalars left out.
  const search = Object.entries(params)
    .map(([k, v]) => [k, Array.isArray(v) ? encodeList(v) : v || undefined] as const)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v!)}`)
    .join('&');
  return `/projects/${projectId}${path}${search ? `?${search}` : ''}`;
}

/** A saved insight's answer, drawn by its insight page's own view. */
export function AnswerView({ kind, query, data }: { kind: string; query: Query; data: unknown }) {
  const known = KINDS[kind];
  if (!known) return <Empty title={`This console cannot draw a ${kind} answer`} />;
  if (known.isEmpty?.(data)) return <Empty title="No events match in this range">Widen the dates or loosen the filters.</Empty>;
  return <>{known.view(query, data)}</>;
}

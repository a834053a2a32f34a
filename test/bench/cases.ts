// The benchmark cases on the largest project: each pp request, its ClickHouse SQL, and how to read
// both answers into one flat set of figures, which must be equal before any ratio is printed.

import { RECORDED_SESSIONS } from './recordingsWriter.js';
import { DATA_TO, PROJECTS } from './generate.js';
import * as peer from './peerSql.js';
import { addDays } from '../../server/engine/dates.js';
import { mondayOf, type CohortSpec, type PeerScope } from './peerSql.js';

export type Figures = Record<string, number | string>;

export interface PpRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Path below /api/v1/projects/{id}/; also the OpenAPI path that must be mounted. */
  path: string;
  body?: unknown;
  query?: Record<string, string>;
}

export interface CaseScope extends PeerScope {
  /** The server's "today" in the project zone: later periods are not started yet. */
  today: string;
}

export interface BenchCase {
  kind: string;
  title: string;
  /** Target median at 10M events, ms. */
  targetMs: number;
  /** The issue asks this query to be no slower than ClickHouse (ratio ≤ 1.0). */
  peerTarget: boolean;
  /** A preparation (see PREPARATIONS) whose answer `pp` needs, made once before timing. */
  needs?: string;
  pp(scope: CaseScope, prepared?: any): PpRequest;
  ppFigures(body: any, scope: CaseScope): Figures;
  peerSql?(scope: CaseScope): string;
  peerFigures?(rows: unknown[][], scope: CaseScope): Figures;
}

export const MAIN_PROJECT = PROJECTS[0]!;
/** Property keys the bench's pp server keeps in its per-day property rollup (events.rollup_properties). */
export const ROLLUP_PROPERTIES = ['category'];
export const TO = DATA_TO;
export const FROM_30 = addDays(TO, -29);
export const FROM_90 = mondayOf(addDays(TO, -89));
/** A point deep in the history for the events list (about two months before the end). */
export const DEEP_BEFORE = `${addDays(TO, -60)}T00:00:00Z`;

const FUNNEL = ['view_pricing', 'signup_started', 'signup_completed'];
const RETENTION: CohortSpec = { from: FROM_90, to: TO, startEvent: 'pp.page_view', returnEvent: 'any', periods: 8 };
const retentionBody = { start_event: RETENTION.startEvent, return_event: RETENTION.returnEvent, granularity: 'week', periods: RETENTION.periods, date_from: RETENTION.from, date_to: RETENTION.to };
const ACTORS_LIMIT = 50;
/** The rules a team would write for the generated site's numbered pages. */
const PATH_RULES = [
  { pattern: '^/product/\\d+$', alias: '/product/:id' },
  { pattern: '^/catalog/\\d+$', alias: '/catalog/:id' },
  { pattern: '^/blog/post-\\d+$', alias: '/blog/:post' },
];
const CORRELATION_TARGET = 'signup_completed';
const PATHS = {
  from: FROM_30,
  to: TO,
  selected: 'view_pricing',
  depth: 4,
  top: 20,
  rules: PATH_RULES,
  exclude: ['pp.click', 'pp.scroll_depth', 'pp.rage_click', 'pp.dead_click'],
};
const EVENTS_LIMIT = 50;

const n = (v: unknown) => Number(v);

function retentionPeerFigures(rows: unknown[][], scope: CaseScope): Figures {
  const out: Figures = {};
  for (const [cohort, period, count] of rows) {
    // pp reports periods that have not started at `now` as null; leave them out on both sides.
    if (addDays(String(cohort), 7 * n(period)) > scope.today) continue;
    out[`${cohort}|${period}`] = n(count);
  }
  return out;
}

/** A page of the events list as its receipt times: uuids tie-break in a different order in ClickHouse. */
const events = (items: Array<{ received_at: string }>): Figures => Object.fromEntries(items.map((it, i) => [String(i), Date.parse(it.received_at)]));

export const CASES: BenchCase[] = [
  {
    kind: 'funnel',
    title: 'Funnel, 3 steps, 30 days, 14-day window',
    targetMs: 300,
    peerTarget: true,
    pp: () => ({ method: 'POST', path: 'queries/funnel', body: { date_from: FROM_30, date_to: TO, window_hours: 336, steps: FUNNEL.map((event) => ({ event })) } }),
    ppFigures: (b) => Object.fromEntries((b.steps as Array<{ count: number }>).map((s, i) => [`step${i + 1}`, s.count])),
    peerSql: (s) => peer.funnelSql(s, { from: FROM_30, to: TO, steps: FUNNEL, windowHours: 336 }),
    peerFigures: (rows) => {
      // windowFunnel gives each actor's level; a step's count is the actors at that level or beyond.
      const byLevel = new Map(rows.map(([level, count]) => [n(level), n(count)]));
      return Object.fromEntries(FUNNEL.map((_, i) => [`step${i + 1}`, [...byLevel].filter(([l]) => l >= i + 1).reduce((a, [, c]) => a + c, 0)]));
    },
  },
  {
    kind: 'retention',
    title: 'Retention, weekly, 8 periods over 90 days',
    targetMs: 400,
    peerTarget: true,
    pp: () => ({ method: 'POST', path: 'queries/retention', body: retentionBody }),
    ppFigures: (b) => {
      // Cohort sizes as period 0, then every returning count that is not null (not yet started) or 0
      // (ClickHouse has no row for a period nobody returned in, nor for an empty cohort).
      const out: Figures = {};
      for (const c of b.cohorts as Array<{ cohort: string; size: number; counts: Array<number | null> }>) {
        c.counts.forEach((v, p) => {
          const value = p === 0 ? c.size : v;
          if (value !== null && value > 0) out[`${c.cohort}|${p}`] = value;
        });
      }
      return out;
    },
    peerSql: (s) => peer.retentionSql(s, RETENTION),
    peerFigures: retentionPeerFigures,
  },
  {
    kind: 'retention_actors',
    title: 'Retention actors, first cohort, period 1, page of 50',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'POST', path: 'queries/retention/actors', body: { ...retentionBody, cohort: FROM_90, period: 1, limit: ACTORS_LIMIT } }),
    ppFigures: (b) => Object.fromEntries((b.items as Array<{ actor_id: string }>).map((it, i) => [String(i), it.actor_id])),
    peerSql: (s) => peer.retentionActorsSql(s, RETENTION, FROM_90, 1, ACTORS_LIMIT),
    peerFigures: (rows) => Object.fromEntries(rows.map(([actor], i) => [String(i), String(actor)])),
  },
  {
    kind: 'segmentation',
    title: 'Segmentation, daily uniques, 30 days',
    targetMs: 300,
    peerTarget: true,
    pp: () => ({ method: 'POST', path: 'queries/segmentation', body: { metric: 'uniques', event: 'any', interval: 'day', date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => Object.fromEntries((b.series[0].points as Array<{ bucket: string; value: number }>).map((p) => [p.bucket, p.value])),
    peerSql: (s) => peer.dailyUniquesSql(s, { from: FROM_30, to: TO, event: 'any' }),
    peerFigures: (rows) => Object.fromEntries(rows.map(([b, v]) => [String(b), n(v)])),
  },
  {
    kind: 'segmentation_property',
    title: 'Segmentation, page views by a JSON property, daily, 30 days',
    targetMs: 300,
    peerTarget: true,
    pp: () => ({
      method: 'POST',
      path: 'queries/segmentation',
      body: { metric: 'events', event: 'pp.page_view', interval: 'day', group_by: { property: 'props.category', limit: 10 }, date_from: FROM_30, date_to: TO },
    }),
    ppFigures: (b) => {
      const out: Figures = {};
      for (const s of b.series as Array<{ name: string; points: Array<{ bucket: string; value: number }> }>) {
        for (const p of s.points) if (p.value !== 0) out[`${s.name}|${p.bucket}`] = p.value;
      }
      return out;
    },
    peerSql: (s) => peer.eventsByPropertySql(s, { from: FROM_30, to: TO, event: 'pp.page_view', property: 'category' }),
    // Fewer than `limit` values exist, so no `$other`; an absent property is '' here and `$none` in pp.
    peerFigures: (rows) => Object.fromEntries(rows.map(([g, b, v]) => [`${g === '' ? '$none' : g}|${b}`, n(v)])),
  },
  {
    kind: 'lifecycle',
    title: 'Lifecycle, daily, 30 days',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'POST', path: 'queries/lifecycle', body: { date_from: FROM_30, date_to: TO, interval: 'day' } }),
    ppFigures: (b) => {
      const out: Figures = {};
      for (const x of b.buckets as Array<Record<string, number | string>>) for (const k of ['new', 'returning', 'resurrecting', 'dormant']) out[`${x.bucket}|${k}`] = Math.abs(n(x[k]));
      return out;
    },
    peerSql: (s) => peer.lifecycleSql(s, { from: FROM_30, to: TO }),
    peerFigures: (rows) => {
      const out: Figures = {};
      for (const [b, nw, r, s, d] of rows) Object.assign(out, { [`${b}|new`]: n(nw), [`${b}|returning`]: n(r), [`${b}|resurrecting`]: n(s), [`${b}|dormant`]: n(d) });
      return out;
    },
  },
  {
    kind: 'stickiness',
    title: 'Stickiness, 30 days',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'POST', path: 'queries/stickiness', body: { date_from: FROM_30, date_to: TO, event: 'any' } }),
    ppFigures: (b) => Object.fromEntries((b.distribution as Array<{ days: number; actors: number }>).filter((d) => d.actors > 0).map((d) => [String(d.days), d.actors])),
    peerSql: (s) => peer.stickinessSql(s, { from: FROM_30, to: TO, event: 'any' }),
    peerFigures: (rows) => Object.fromEntries(rows.map(([d, c]) => [String(d), n(c)])),
  },
  {
    kind: 'activity_summary',
    title: 'Activity summary (DAU, WAU, MAU)',
    targetMs: 300,
    peerTarget: true,
    pp: () => ({ method: 'POST', path: 'queries/activity-summary', body: { date_to: TO, event: 'any' } }),
    ppFigures: (b) => ({ dau: b.dau, wau: b.wau, mau: b.mau, active_days: Math.round(b.usage_frequency * b.mau), repeaters: Math.round(b.repeat_activity * b.mau) }),
    peerSql: (s) => peer.activitySummarySql(s, { to: TO, event: 'any' }),
    peerFigures: ([[dau, wau, mau, days, repeaters]]) => ({ dau: n(dau), wau: n(wau), mau: n(mau), active_days: n(days), repeaters: n(repeaters) }),
  },
  {
    kind: 'revenue_summary',
    title: 'Revenue summary, 30 days',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'POST', path: 'queries/revenue-summary', body: { date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => ({ revenue: b.revenue, active_actors: b.active_actors, paying_actors: b.paying_actors, refunds: b.refunds, refund_count: b.refund_count }),
    peerSql: (s) => peer.revenueSummarySql(s, { from: FROM_30, to: TO }),
    peerFigures: ([[revenue, active, paying, , refunds, refundCount]]) => ({
      revenue: n(revenue),
      active_actors: n(active),
      paying_actors: n(paying),
      refunds: n(refunds),
      refund_count: n(refundCount),
    }),
  },
  {
    // The whole Web page: totals against the previous 30 days, the daily series and every table.
    kind: 'web',
    title: 'Web page, 30 days and the previous 30',
    targetMs: 500,
    peerTarget: false,
    pp: () => ({ method: 'POST', path: 'queries/web', body: { date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => ({ visitors: b.totals.visitors, visits: b.totals.visits, page_views: b.totals.page_views, previous_visits: b.previous.visits, pages: b.pages.length }),
  },
  {
    kind: 'paths',
    title: 'Paths, 4 steps after a page, 30 days, 3 cleaning rules',
    targetMs: 300,
    peerTarget: true,
    needs: 'path_rules',
    pp: () => ({
      method: 'POST',
      path: 'queries/paths',
      body: {
        date_from: PATHS.from,
        date_to: PATHS.to,
        selected_event: PATHS.selected,
        direction: 'after',
        depth: PATHS.depth,
        mode: 'actor',
        exclude_events: PATHS.exclude,
        top_n: PATHS.top,
      },
    }),
    ppFigures: (b) => Object.fromEntries((b.routes as Array<{ items: string[]; count: number }>).map((r) => [r.items.join(' → '), r.count])),
    peerSql: (s) => peer.pathsSql(s, PATHS),
    peerFigures: (rows) => Object.fromEntries(rows.map(([route, count]) => [(route as string[]).join(' → '), n(count)])),
  },
  {
    // Every actor at the anchor: the whole graph is folded again to find them, then a page of 50.
    kind: 'paths_actors',
    title: 'Paths actors at the anchor node, 30 days, page of 50',
    targetMs: 500,
    peerTarget: false,
    needs: 'path_rules',
    pp: () => ({
      method: 'POST',
      path: 'queries/paths/actors',
      body: {
        date_from: PATHS.from,
        date_to: PATHS.to,
        selected_event: PATHS.selected,
        direction: 'after',
        depth: PATHS.depth,
        mode: 'actor',
        exclude_events: PATHS.exclude,
        top_n: PATHS.top,
        step: 0,
        item: PATHS.selected,
        limit: ACTORS_LIMIT,
      },
    }),
    ppFigures: (b) => ({ units: b.units, total: b.total, listed: (b.items as unknown[]).length }),
  },
  {
    kind: 'correlations',
    title: 'Correlations with signup_completed, 30 days',
    targetMs: 1000,
    peerTarget: true,
    pp: () => ({ method: 'POST', path: 'queries/correlations', body: { date_from: FROM_30, date_to: TO, target_event: CORRELATION_TARGET, min_n: 5, limit: 20 } }),
    ppFigures: (b) => {
      const out: Figures = {};
      for (const c of b.candidates as Array<{ event: string; actors: number; converted_did: number }>) Object.assign(out, { [`${c.event}|did`]: c.actors, [`${c.event}|converted`]: c.converted_did });
      return out;
    },
    peerSql: (s) => peer.correlationsSql(s, { from: FROM_30, to: TO, target: CORRELATION_TARGET, minN: 5, limit: 20 }),
    peerFigures: (rows) => {
      const out: Figures = {};
      for (const [event, did, conv] of rows) Object.assign(out, { [`${event}|did`]: n(did), [`${event}|converted`]: n(conv) });
      return out;
    },
  },
  {
    kind: 'activation_drivers',
    title: 'Activation drivers, signups over 60 days, return in days 7–27',
    targetMs: 1000,
    peerTarget: false,
    pp: () => ({
      method: 'POST',
      path: 'queries/activation-drivers',
      body: { date_from: FROM_90, date_to: addDays(TO, -30), anchor_event: CORRELATION_TARGET, outcome: { event: 'pp.page_view', from_day: 7, to_day: 28 } },
    }),
    ppFigures: (b) =>
      Object.fromEntries(
        (b.drivers as Array<{ event: string; window_days: number; threshold: number; validation: { support: number } }>).map((d) => [
          d.event,
          `${d.window_days}d ≥${d.threshold}: ${d.validation.support}`,
        ]),
      ),
  },
  {
    kind: 'behavior_urls',
    title: 'Page behavior, pages by event count, 30 days (first 50)',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'pages/behavior/urls', query: { date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => Object.fromEntries((b.items as Array<{ url: string; events: number; clicks: number }>).slice(0, 10).map((i) => [i.url, `${i.events}/${i.clicks}`])),
  },
  {
    kind: 'page_behavior',
    title: 'Page behavior of the home page (the most visited), 30 days: figures, heatmap, elements',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'pages/behavior', query: { url: `https://${MAIN_PROJECT.host}/`, date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => ({ clicks: b.summary.clicks, unique_clickers: b.summary.unique_clickers, rage: b.summary.rage_clicks, elements: (b.items as unknown[]).length }),
  },
  {
    kind: 'forms',
    title: 'Forms by starts, 30 days',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'forms', query: { date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) =>
      Object.fromEntries((b.items as Array<{ form: string; url: string; starts: number; submits: number }>).slice(0, 10).map((i) => [`${i.form} ${i.url}`, `${i.starts}/${i.submits}`])),
  },
  {
    kind: 'form_detail',
    title: 'Form detail of #checkout-form on every page, 30 days',
    targetMs: 300,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'forms/detail', query: { form: '#checkout-form', date_from: FROM_30, date_to: TO } }),
    ppFigures: (b) => Object.fromEntries((b.items as Array<{ field: string; drop_offs: number; interactions: number }>).map((i) => [i.field, `${i.drop_offs}/${i.interactions}`])),
  },
  {
    kind: 'events_first_page',
    title: 'Events list, first page (50, newest received first)',
    targetMs: 100,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'events', query: { limit: String(EVENTS_LIMIT) } }),
    ppFigures: (b) => events(b.items),
    peerSql: (s) => peer.eventsPageSql(s, { page: 0, limit: EVENTS_LIMIT }),
    peerFigures: (rows) => Object.fromEntries(rows.map(([t], i) => [String(i), n(t)])),
  },
  {
    kind: 'events_deep_page',
    title: 'Events list, a deep page (cursor two months back)',
    targetMs: 100,
    peerTarget: false,
    // The page after the first page before DEEP_BEFORE: a real cursor deep in the history.
    needs: 'events_deep_seek',
    pp: (_s, seek?: { next_cursor: string }) => ({ method: 'GET', path: 'events', query: { limit: String(EVENTS_LIMIT), to: DEEP_BEFORE, cursor: seek?.next_cursor ?? '' } }),
    ppFigures: (b) => events(b.items),
    peerSql: (s) => peer.eventsPageSql(s, { beforeMs: Date.parse(DEEP_BEFORE), page: 1, limit: EVENTS_LIMIT }),
    peerFigures: (rows) => Object.fromEntries(rows.map(([t], i) => [String(i), n(t)])),
  },
  {
    kind: 'recordings_list',
    title: `Recordings list, first page (50 of ${RECORDED_SESSIONS.toLocaleString('en')} sessions, newest first)`,
    targetMs: 200,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'recordings', query: { limit: String(EVENTS_LIMIT) } }),
    ppFigures: (b) => ({ items: b.items.length, clicks: (b.items as Array<{ clicks: number }>).reduce((sum, r) => sum + r.clicks, 0) }),
  },
  {
    kind: 'recordings_rage',
    title: 'Recordings list filtered: rage clicks on a page, at least 30 s',
    targetMs: 200,
    peerTarget: false,
    pp: () => ({ method: 'GET', path: 'recordings', query: { limit: String(EVENTS_LIMIT), rage_clicks: 'true', url: '/product/', min_duration: '30' } }),
    ppFigures: (b) => ({ items: b.items.length }),
  },
];

/** Requests whose answers cases need (`needs`), made once before timing. */
export const PREPARATIONS: Record<string, PpRequest> = {
  path_rules: { method: 'PUT', path: 'path-cleaning', body: { rules: PATH_RULES } },
  events_deep_seek: { method: 'GET', path: 'events', query: { limit: String(EVENTS_LIMIT), to: DEEP_BEFORE } },
};

/** Figures are equal when they have the same keys and values (numbers within 1e-9 relative). */
export function figuresDiffer(a: Figures, b: Figures): string | undefined {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  const diffs: string[] = [];
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    const same = typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y)) : x === y;
    if (!same) diffs.push(`${k}: pp ${x ?? '(none)'} vs ClickHouse ${y ?? '(none)'}`);
  }
  if (diffs.length === 0) return undefined;
  return `${diffs.length} of ${keys.length} figures differ: ${diffs.slice(0, 6).join('; ')}${diffs.length > 6 ? '; …' : ''}`;
}

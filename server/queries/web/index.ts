// Web analytics (POST /projects/{id}/queries/web, so saved insights and dashboards hold it
// like any other): checks, the statements run on the event store, and the answer shaped — totals
// with their change against the previous period, a zero-filled daily series, the tables ranked.

import type { EventEngine, Row } from '../../engine/engine.js';
import { checkFilters } from '../../engine/filters.js';
import { bucketsOf, previousRange } from '../../engine/dates.js';
import { compareText, num } from '../../engine/sql.js';
import { checkRange } from '../ranges.js';
import type { QueryContext } from '../context.js';
import type { QueryRoute } from '../queryRoute.js';
import { webStatements } from './statements.js';
import { ENTRY_DIMENSIONS, type WebRow, type WebSummaryParams, type WebSummaryResponse, type WebTotals } from './types.js';

export function validateWebSummary(p: WebSummaryParams): void {
  checkRange(p.date_from, p.date_to);
  checkFilters(p.filters);
}

export interface WebSummaryRows {
  current: Row[];
  previous: Row[];
  live: number;
}

export async function runWebSummary(engine: EventEngine, p: WebSummaryParams, ctx: QueryContext): Promise<WebSummaryRows> {
  const { summary, live: liveSql } = webStatements[engine.kind];
  const before = previousRange(p.date_from, p.date_to);
  const cur = summary({ from: p.date_from, to: p.date_to }, p.filters, ctx, false);
  const prev = summary({ from: before.date_from, to: before.date_to }, p.filters, ctx, true);
  const live = liveSql(ctx.now, p.filters, ctx);
  const options = { timeoutMs: ctx.timeoutMs };
  const [current, previous, liveRows] = await Promise.all([engine.read(cur.sql, cur.params, options), engine.read(prev.sql, prev.params, options), engine.read(live.sql, live.params, options)]);
  return { current, previous, live: num(liveRows[0]?.live ?? 0) };
}

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

/** The totals of a `total` row (absent: no visits). */
export function totalsOf(row: Row | undefined): WebTotals {
  const visits = num(row?.visits ?? 0);
  const pageViews = num(row?.page_views ?? 0);
  return {
    visitors: num(row?.visitors ?? 0),
    visits,
    page_views: pageViews,
    views_per_visit: ratio(pageViews, visits),
    bounce_rate: ratio(num(row?.bounces ?? 0), visits),
    // Milliseconds summed in the store; seconds per visit here.
    visit_duration: visits === 0 ? null : num(row?.duration_ms ?? 0) / visits / 1000,
  };
}

function changeOf(now: WebTotals, before: WebTotals): WebSummaryResponse['change'] {
  const keys = Object.keys(now) as Array<keyof WebTotals>;
  return Object.fromEntries(
    keys.map((k) => {
      const a = now[k];
      const b = before[k];
      return [k, a === null || b === null || b === 0 ? null : (a - b) / b];
    }),
  ) as WebSummaryResponse['change'];
}

/** Most visitors first, then most visits and page views, then the value in text order (no value last). */
export function rankRows(rows: WebRow[], limit: number): WebRow[] {
  return [...rows]
    .sort((a, b) => b.visitors - a.visitors || b.visits - a.visits || b.page_views - a.page_views || (a.value === null ? 1 : b.value === null ? -1 : compareText(a.value, b.value)))
    .slice(0, limit);
}

export function shapeWebSummary(rows: WebSummaryRows, p: WebSummaryParams): WebSummaryResponse {
  const sections = new Map<string, WebRow[]>();
  let total: Row | undefined;
  for (const r of rows.current) {
    const section = String(r.section);
    if (section === 'total') {
      total = r;
      continue;
    }
    // Paths and property values stored empty are "none", like absent ones.
    const value = r.value === null || r.value === undefined || r.value === '' ? null : String(r.value);
    const list = sections.get(section) ?? [];
    list.push({ value, visitors: num(r.visitors), visits: num(r.visits), page_views: num(r.page_views) });
    sections.set(section, list);
  }
  const totals = totalsOf(total);
  const before = previousRange(p.date_from, p.date_to);
  const previous = totalsOf(rows.previous[0]);
  const days = new Map((sections.get('day') ?? []).map((r) => [r.value, r]));
  const table = (name: string) => rankRows(sections.get(name) ?? [], p.limit);
  return {
    date_from: p.date_from,
    date_to: p.date_to,
    totals,
    previous: { ...previous, ...before },
    change: changeOf(totals, previous),
    series: bucketsOf(p.date_from, p.date_to, 'day').map((bucket) => {
      const d = days.get(bucket);
      return { bucket, visitors: d?.visitors ?? 0, visits: d?.visits ?? 0, page_views: d?.page_views ?? 0 };
    }),
    pages: table('pages'),
    entry_pages: table('entry_pages'),
    exit_pages: table('exit_pages'),
    ...(Object.fromEntries(ENTRY_DIMENSIONS.map(([name]) => [name, table(name)])) as Record<(typeof ENTRY_DIMENSIONS)[number][0], WebRow[]>),
    live_visitors: rows.live,
  };
}

export const webSummaryRoute: QueryRoute<WebSummaryParams> = {
  name: 'web',
  path: 'web',
  doc: {
    operationId: 'queryWebSummary',
    summary: 'Web analytics: visitors, page views, bounce rate and visit duration against the previous period, and the top tables',
    description:
      "Visits are a visitor's events with no gap over 30 minutes, within the range; a bounce is a visit of one page view and no other event. Tables group visits by their entry page view's derived properties (docs/web-analytics.md). Filters keep the visits holding one event that matches them all.",
    request: 'WebSummaryRequest',
    response: 'WebSummaryResponse',
    gated: false,
  },
  validate: validateWebSummary,
  entitlements: () => [],
  execute: async (engine, p, ctx) => shapeWebSummary(await runWebSummary(engine, p, ctx), p),
};

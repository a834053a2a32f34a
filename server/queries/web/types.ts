// The Web page's query: the request as the OpenAPI schema has checked it, the answer's shape, and
// their schemas (docs/web-analytics.md defines visits, bounces and durations).

import type { FilterItem } from '../../engine/filters.js';
import { ref, type JsonSchema } from '../../http/openapi.js';

export interface WebSummaryParams {
  date_from: string;
  date_to: string;
  filters?: FilterItem[];
  /** Rows per table (default 10). */
  limit: number;
}

export { PAGE_VIEW, VISIT_GAP_MS } from '../../engine/rollups/visitDays.js';
/** Visitors with an event this recent are "now" on the site. */
export const LIVE_WINDOW_MS = 5 * 60 * 1000;

/** The tables, each grouping visits by a property of their entry page view, in the answer's order. */
export const ENTRY_DIMENSIONS = [
  ['channels', '$channel'],
  ['referrers', '$referring_domain'],
  ['campaigns', '$utm_campaign'],
  ['countries', '$country'],
  ['browsers', '$browser'],
  ['operating_systems', '$os'],
  ['devices', '$device_type'],
] as const;
export type DimensionTable = (typeof ENTRY_DIMENSIONS)[number][0];

export interface WebTotals {
  visitors: number;
  visits: number;
  page_views: number;
  /** page_views / visits; null without visits. */
  views_per_visit: number | null;
  /** Share of visits that were one page view and nothing else; null without visits. */
  bounce_rate: number | null;
  /** Mean seconds from a visit's first event to its last; null without visits. */
  visit_duration: number | null;
}

export interface WebRow {
  /** The page path or property value; null groups visits without one. */
  value: string | null;
  visitors: number;
  visits: number;
  page_views: number;
}

export interface WebSummaryResponse {
  date_from: string;
  date_to: string;
  totals: WebTotals;
  /** The same days just before date_from. */
  previous: WebTotals & { date_from: string; date_to: string };
  /** Relative change of each total against previous: (now − before) / before; null when before is 0 or null. */
  change: Record<keyof WebTotals, number | null>;
  series: Array<{ bucket: string; visitors: number; visits: number; page_views: number }>;
  pages: WebRow[];
  entry_pages: WebRow[];
  exit_pages: WebRow[];
  channels: WebRow[];
  referrers: WebRow[];
  campaigns: WebRow[];
  countries: WebRow[];
  browsers: WebRow[];
  operating_systems: WebRow[];
  devices: WebRow[];
  /** Distinct visitors with an event in the five minutes before the answer (filters apply). */
  live_visitors: number;
}

const date: JsonSchema = { type: 'string', format: 'date', description: 'inclusive local date in the project time zone, YYYY-MM-DD' };
const count: JsonSchema = { type: 'integer', minimum: 0 };
const ratio: JsonSchema = { type: ['number', 'null'] };
const totalsProps = { visitors: count, visits: count, page_views: count, views_per_visit: ratio, bounce_rate: ratio, visit_duration: { type: ['number', 'null'], description: 'seconds' } };
const out = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', required: Object.keys(properties), properties });
const row = out({ value: { type: ['string', 'null'] }, visitors: count, visits: count, page_views: count });
const table = (description: string): JsonSchema => ({ type: 'array', items: ref('WebRow'), description });

export const webSummarySchemas: Record<string, JsonSchema> = {
  WebSummaryRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['date_from', 'date_to'],
    properties: {
      date_from: date,
      date_to: date,
      filters: { ...ref('QueryFilters'), description: 'keeps the visits holding at least one event that matches every filter (e.g. props.$country eq DE)' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'rows per table' },
    },
  },
  WebRow: row,
  WebTotals: out(totalsProps),
  WebSummaryResponse: out({
    date_from: date,
    date_to: date,
    totals: ref('WebTotals'),
    previous: out({ ...totalsProps, date_from: date, date_to: date }),
    change: { ...out(Object.fromEntries(Object.keys(totalsProps).map((k) => [k, ratio]))), description: '(now − before) / before per total; null when before is 0 or null' },
    series: { type: 'array', items: out({ bucket: date, visitors: count, visits: count, page_views: count }), description: 'one entry per local day, zero-filled; a visit counts on the day it began' },
    pages: table('page paths by visitors, with their page views'),
    entry_pages: table('first page view path of each visit'),
    exit_pages: table('last page view path of each visit'),
    ...Object.fromEntries(ENTRY_DIMENSIONS.map(([name, prop]) => [name, table(`visits by their entry page view's ${prop}`)])),
    live_visitors: { ...count, description: 'distinct visitors with an event in the last five minutes (filters apply); not limited by the dates' },
  }),
};

// The report parameters every behavior and forms report takes (docs/behavior.md#report-parameters):
// the local date range, `filters` as JSON text, the page size and the cursor, checked and turned
// into one effective scope that cursors are bound to. Building SQL is left to the reports.

import { parseFilters, type Filter } from '../engine/filters.js';
import { checkRange, type DateRange } from '../queries/ranges.js';
import { addDays } from '../engine/dates.js';
import type { CursorCodec } from '../queries/cursors.js';

export const DEFAULT_REPORT_LIMIT = 50;
export const MAX_REPORT_LIMIT = 500;

export interface ReportParams extends DateRange {
  filters: Filter[];
  limit: number;
  cursor?: string;
}

/** `query` is req.valid.query (formats checked by the OpenAPI schema); `today` the project's local date. */
export function parseReportParams(query: Record<string, unknown>, today: string): ReportParams {
  const str = (name: string) => (query[name] === undefined ? undefined : String(query[name]));
  const from = str('date_from');
  const to = str('date_to');
  checkRange(from, to);
  const range = from !== undefined && to !== undefined ? { date_from: from, date_to: to } : { date_from: addDays(today, -29), date_to: today };
  return {
    ...range,
    filters: parseFilters(str('filters')),
    limit: query.limit === undefined ? DEFAULT_REPORT_LIMIT : Number(query.limit),
    cursor: str('cursor'),
  };
}

/** The position a `cursor` encodes for `scope`, or undefined on the first page. */
export function positionOf<K>(codec: CursorCodec, scope: unknown, cursor: string | undefined): K | undefined {
  return cursor === undefined ? undefined : codec.decode<K>(scope, cursor, 'cursor');
}

/** The page of `rows` (fetched with one row past `limit`) and the cursor to the next one. */
export function pageOf<T, K>(codec: CursorCodec, scope: unknown, rows: T[], limit: number, keyOf: (row: T) => K): { items: T[]; next_cursor: string | null } {
  const items = rows.slice(0, limit);
  const next = rows.length > limit ? codec.encode(scope, keyOf(items[items.length - 1]!)) : null;
  return { items, next_cursor: next };
}

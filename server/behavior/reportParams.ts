// The report parameters every behavior and forms report takes (docs/behavior.md#report-parameters):
// the local date range, `filters` as JSON text, the page size and the cursor, checked and turned
// into one effective scope that cursors are bound to. Building SQL is left to the reports.

import { ValidationError } from '../ground/errors.js';
import { checkFilters, FILTER_COLUMNS, FILTER_OPS, type Filter } from '../engine/filters.js';
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

const FIELD = new RegExp(`^(${FILTER_COLUMNS.join('|')}|props\\.[^*]{1,200})$`);

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

/** The decoded `filters` parameter: Filter objects only (saved segments are not accepted here). */
export function parseFilters(text: string | undefined): Filter[] {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError('filters must be a JSON-encoded array of Filter objects', 'filters');
  }
  if (!Array.isArray(value)) throw new ValidationError('filters must be a JSON-encoded array of Filter objects', 'filters');
  value.forEach((item: unknown, i) => checkFilterShape(item, `filters[${i}]`));
  const filters = value as Filter[];
  checkFilters(filters);
  return filters;
}

function checkFilterShape(item: unknown, where: string): void {
  if (typeof item === 'string') throw new ValidationError(`${where}: saved-segment references are not accepted by reports (got ${JSON.stringify(item)})`, where);
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new ValidationError(`${where} must be a Filter object`, where);
  const f = item as Record<string, unknown>;
  const extra = Object.keys(f).find((k) => !['field', 'op', 'value'].includes(k));
  if (extra) throw new ValidationError(`${where} has an unknown member ${JSON.stringify(extra)}`, `${where}.${extra}`);
  if (typeof f.field !== 'string' || !FIELD.test(f.field)) {
    throw new ValidationError(`${where}.field must be one of ${FILTER_COLUMNS.join(', ')} or props.<key>, got ${JSON.stringify(f.field ?? null)}`, `${where}.field`);
  }
  if (typeof f.op !== 'string' || !(FILTER_OPS as readonly string[]).includes(f.op)) {
    throw new ValidationError(`${where}.op must be one of ${FILTER_OPS.join(', ')}, got ${JSON.stringify(f.op ?? null)}`, `${where}.op`);
  }
  const v = f.value;
  const scalar = (x: unknown) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
  if (v !== undefined && v !== null && !scalar(v) && !(Array.isArray(v) && v.length <= 100 && v.every(scalar))) {
    throw new ValidationError(`${where}.value must be a string, number, boolean, null or an array of at most 100 of them`, `${where}.value`);
  }
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

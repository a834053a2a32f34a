// Filters as the API takes them: Filter objects and `segment:<id>` references. Here are their types
// and the semantic checks the schema cannot express (size, operator/value agreement); turning them
// into SQL is conditions.ts's job, loading referenced segments the route's.

import { ValidationError } from '../ground/errors.js';

export const FILTER_COLUMNS = ['url', 'path', 'referrer', 'source', 'sdk_name', 'release'] as const;
export const FILTER_OPS = ['eq', 'neq', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists'] as const;

export type FilterOp = (typeof FILTER_OPS)[number];
export type Scalar = string | number | boolean;

export interface Filter {
  /** A column from FILTER_COLUMNS or `props.<key>`. */
  field: string;
  op: FilterOp;
  value?: Scalar | Scalar[] | null;
}

/** What a `filters` array holds: Filter objects and `segment:<id>` strings. */
export type FilterItem = Filter | string;

export const MAX_FILTERS = 20;
export const MAX_FILTER_BYTES = 8192;

/** The numeric id of a `segment:<id>` item (the schema has checked the pattern). */
export function segmentId(item: string): number {
  return Number(item.slice('segment:'.length));
}

export function segmentIds(items: readonly FilterItem[] | undefined): number[] {
  return (items ?? []).filter((i): i is string => typeof i === 'string').map(segmentId);
}

/** Size and operator checks for one `filters` array; `field` names it in errors (`steps[1].filters`). */
export function checkFilters(items: readonly FilterItem[] | undefined, field = 'filters'): void {
  if (!items) return;
  if (items.length > MAX_FILTERS) throw new ValidationError(`${field} holds ${items.length} items; at most ${MAX_FILTERS} are allowed`, field);
  const bytes = Buffer.byteLength(JSON.stringify(items), 'utf8');
  if (bytes > MAX_FILTER_BYTES) throw new ValidationError(`${field} takes ${bytes} bytes; at most ${MAX_FILTER_BYTES} are allowed`, field);
  items.forEach((item, i) => {
    if (typeof item !== 'string') checkFilterValue(item, `${field}[${i}]`);
  });
}

function checkFilterValue(f: Filter, where: string): void {
  const v = f.value;
  const bad = (need: string) => new ValidationError(`${where}: op ${f.op} needs ${need}, got ${JSON.stringify(v ?? null)}`, `${where}.value`);
  const scalar = (x: unknown) => typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
  switch (f.op) {
    case 'eq':
    case 'neq':
      if (!scalar(v)) throw bad('a string, number or boolean value');
      return;
    case 'in':
    case 'not_in':
      if (!Array.isArray(v) || v.length === 0 || !v.every(scalar)) throw bad('a non-empty array of strings, numbers or booleans');
      return;
    case 'contains':
    case 'not_contains':
    case 'starts_with':
      if (typeof v !== 'string' || v === '') throw bad('a non-empty string value');
      return;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (typeof v !== 'number') throw bad('a number value');
      if (!f.field.startsWith('props.')) {
        throw new ValidationError(`${where}: op ${f.op} compares numbers and applies only to props.<key> fields, not ${f.field}`, `${where}.op`);
      }
      return;
    case 'exists':
    case 'not_exists':
      if (v !== undefined && v !== null) throw bad('no value');
      return;
  }
}

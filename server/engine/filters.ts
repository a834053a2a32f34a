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

const FILTER_FIELD = new RegExp(`^(${FILTER_COLUMNS.join('|')}|props\\.[^*]{1,200})$`);

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
  if (typeof f.field !== 'string' || !FILTER_FIELD.test(f.field)) {
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

// A query's filters as the URL writes them, one `filter` list item each: `field|op|value` (a list
// value as `a,b,c`) or `segment:<id>`. Pure, so the codecs of the insight kinds share it, in the
// browser and in the tests.

import type { components } from '../api/schema.js';

type QueryFilter = components['schemas']['QueryFilter'];

export type FilterItem = QueryFilter | string;

export const OPS: Array<QueryFilter['op']> = ['eq', 'neq', 'in', 'not_in', 'contains', 'not_contains', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists'];

/** A filter in the URL: `field|op|value` (a list as `a,b,c`), or `segment:<id>`. */
export function parseFilter(text: string): FilterItem | undefined {
  if (text.startsWith('segment:')) return text;
  const [field, op, ...rest] = text.split('|');
  if (!field || !op || !OPS.includes(op as QueryFilter['op'])) return undefined;
  if (op === 'exists' || op === 'not_exists') return { field, op: op as QueryFilter['op'] };
  const raw = rest.join('|');
  // in / not_in take a list, typed as values separated by commas.
  if (op === 'in' || op === 'not_in')
    return {
      field,
      op,
      value: raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    };
  const value = ['gt', 'gte', 'lt', 'lte'].includes(op) && raw !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  return { field, op: op as QueryFilter['op'], value };
}

export function filterText(f: FilterItem): string {
  return typeof f === 'string' ? f : [f.field, f.op, ...(f.value === undefined ? [] : [String(f.value)])].join('|');
}

/** Filters of the URL's `filter` list, as the API takes them. */
export function filtersOf(texts: string[]): FilterItem[] {
  return texts.map(parseFilter).filter((f): f is FilterItem => f !== undefined);
}

// Conditions on the event `e`: filter fields and operators as SQL, saved segments expanded, the
// event name and the events pp manages itself. Every value is bound.

import { FILTER_COLUMNS, segmentId, type Filter, type FilterItem } from './filters.js';
import type { Binder } from './sql.js';

/** The text of a filter field on `e`: a fixed column, or a top-level key of `props` (JSON). */
export function fieldText(b: Binder, field: string): string {
  if ((FILTER_COLUMNS as readonly string[]).includes(field)) return `e.${field}`;
  if (!field.startsWith('props.')) throw new Error(`unknown filter field ${field}`);
  return propertyText(b, field.slice('props.'.length));
}

/** The text of the top-level key `key` of `e.props` (JSON), NULL where absent. */
export function propertyText(b: Binder, key: string): string {
  return `json_extract_string(e.props, ${b.bind(propsPath(key))})`;
}

/** A JSON path naming exactly one top-level key, however it is spelled. */
export function propsPath(key: string): string {
  return `$."${key.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Scalars compare by their text, as `props` values are stored (5 → '5', true → 'true'). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** One Filter as a condition on `e`. Negative operators also match events without the field. */
export function filterCondition(b: Binder, f: Filter): string {
  if (f.op === 'gt' || f.op === 'gte' || f.op === 'lt' || f.op === 'lte') return numericCondition(b, f);
  const field = fieldText(b, f.field);
  switch (f.op) {
    case 'eq':
      return `(${field} = ${b.bind(text(f.value))})`;
    case 'neq':
      return `(${field} IS NULL OR ${field} <> ${b.bind(text(f.value))})`;
    case 'in':
      return `(${field} IN (${(f.value as unknown[]).map((v) => b.bind(text(v))).join(', ')}))`;
    case 'not_in':
      return `(${field} IS NULL OR ${field} NOT IN (${(f.value as unknown[]).map((v) => b.bind(text(v))).join(', ')}))`;
    case 'contains':
      return `contains(${field}, ${b.bind(text(f.value))})`;
    case 'not_contains':
      return `(${field} IS NULL OR NOT contains(${field}, ${b.bind(text(f.value))}))`;
    case 'starts_with':
      return `starts_with(${field}, ${b.bind(text(f.value))})`;
    case 'exists':
      return `(${field} IS NOT NULL)`;
    case 'not_exists':
      return `(${field} IS NULL)`;
  }
}

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * Only JSON numbers take part in numeric comparisons; strings that look numeric do not. The value
 * is bound as its shortest text, read back as the same DOUBLE (a whole number bound as a number
 * would be bound as a BIGINT, which 1e19 does not fit).
 */
function numericCondition(b: Binder, f: Filter): string {
  const path = b.bind(propsPath(f.field.slice('props.'.length)));
  const cmp = COMPARATORS[f.op as keyof typeof COMPARATORS];
  return `(json_type(e.props, ${path}) IN ('UBIGINT', 'BIGINT', 'DOUBLE') AND TRY_CAST(json_extract_string(e.props, ${path}) AS DOUBLE) ${cmp} CAST(${b.bind(String(Number(f.value)))} AS DOUBLE))`;
}

/** Resolved saved segments by id; the route loads the ones a request names. */
export type Segments = ReadonlyMap<number, readonly Filter[]>;

/** All items ANDed; a `segment:<id>` item stands for its segment's filters. */
export function filtersCondition(b: Binder, items: readonly FilterItem[] | undefined, segments: Segments): string {
  const parts: string[] = [];
  for (const item of items ?? []) {
    if (typeof item === 'string') {
      const filters = segments.get(segmentId(item));
      if (!filters) throw new Error(`segment ${item} was not loaded`);
      parts.push(...filters.map((f) => filterCondition(b, f)));
    } else {
      parts.push(filterCondition(b, item));
    }
  }
  return parts.length > 0 ? parts.join(' AND ') : 'TRUE';
}

/** Whether a filter list restricts events at all (else the day-level rollup can answer). */
export function hasFilters(items: readonly FilterItem[] | undefined): boolean {
  return (items?.length ?? 0) > 0;
}

/** `e.event = …`, or no condition for the pseudo-event `any`. */
export function eventCondition(b: Binder, event: string): string {
  return event === 'any' ? 'TRUE' : `e.event = ${b.bind(event)}`;
}
/** Events pp derives or captures itself: autocapture (`pp.*`) and labeled-event rows. */
export function managedEvent(row = 'e'): string {
  return `(starts_with(${row}.event, 'pp.') OR ${row}.rule_id IS NOT NULL)`;
}

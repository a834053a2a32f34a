// Conditions on the event `e` in ClickHouse SQL, with the meaning of ../conditions.ts on DuckDB:
// filter fields and operators, saved segments expanded, the event name and the events pp manages
// itself. Values are literals (literal.ts). A property is read from the columns the appender fills
// from `props` (properties.ts): top-level keys only, as DuckDB's `$."key"` paths. Every condition is
// a UInt8 that is never NULL, 1 exactly where DuckDB's condition is TRUE.

import { FILTER_COLUMNS, segmentId, type Filter, type FilterItem } from '../filters.js';
import type { Segments } from '../conditions.js';
import { literal } from './literal.js';
import { numberOrder } from './properties.js';

export { hasFilters, type Segments } from '../conditions.js';

/** The text of a filter field on `e` (a Nullable(String) or String): a fixed column, or a top-level key of `props`. */
export function fieldText(field: string): string {
  if ((FILTER_COLUMNS as readonly string[]).includes(field)) return `e.${field}`;
  if (!field.startsWith('props.')) throw new Error(`unknown filter field ${field}`);
  return propertyText(field.slice('props.'.length));
}

/** Where the top-level key `key` sits among `e.prop_keys` (0 where absent: the element read there is NULL). */
const keyIndex = (key: string) => `indexOf(e.prop_keys, ${literal(key)})`;

/** The text of the top-level key `key` of `e.props`, NULL where absent or JSON null (a Nullable(String)). */
export function propertyText(key: string): string {
  return `e.prop_values[${keyIndex(key)}]`;
}

/** Scalars compare by their text, as `props` values are stored (5 → '5', true → 'true'). */
function text(value: unknown): string {
  return literal(typeof value === 'string' ? value : JSON.stringify(value));
}

const list = (value: unknown) => (value as unknown[]).map(text).join(', ');

/** One Filter as a condition on `e`. Negative operators also match events without the field. */
export function filterCondition(f: Filter): string {
  if (f.op === 'gt' || f.op === 'gte' || f.op === 'lt' || f.op === 'lte') return numericCondition(f);
  const field = fieldText(f.field);
  switch (f.op) {
    case 'eq':
      return `ifNull(${field} = ${text(f.value)}, 0)`;
    case 'neq':
      return `ifNull(${field} != ${text(f.value)}, 1)`;
    case 'in':
      return `(isNotNull(${field}) AND ${field} IN (${list(f.value)}))`;
    case 'not_in':
      return `(isNull(${field}) OR ${field} NOT IN (${list(f.value)}))`;
    case 'contains':
      return `ifNull(position(${field}, ${text(f.value)}) > 0, 0)`;
    case 'not_contains':
      return `ifNull(position(${field}, ${text(f.value)}) = 0, 1)`;
    case 'starts_with':
      return `ifNull(startsWith(${field}, ${text(f.value)}), 0)`;
    case 'exists':
      return `isNotNull(${field})`;
    case 'not_exists':
      return `isNull(${field})`;
  }
}

const COMPARATORS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/** Only JSON numbers take part in numeric comparisons; strings that look numeric do not. Compared by their order keys (exact). */
function numericCondition(f: Filter): string {
  const cmp = COMPARATORS[f.op as keyof typeof COMPARATORS];
  return `ifNull(e.prop_numbers[${keyIndex(f.field.slice('props.'.length))}] ${cmp} toInt64(${literal(numberOrder(Number(f.value)))}), 0)`;
}

/** All items ANDed; a `segment:<id>` item stands for its segment's filters. */
export function filtersCondition(items: readonly FilterItem[] | undefined, segments: Segments): string {
  const parts: string[] = [];
  for (const item of items ?? []) {
    if (typeof item === 'string') {
      const filters = segments.get(segmentId(item));
      if (!filters) throw new Error(`segment ${item} was not loaded`);
      parts.push(...filters.map(filterCondition));
    } else {
      parts.push(filterCondition(item));
    }
  }
  return parts.length > 0 ? parts.join(' AND ') : '1';
}

/** `e.event = …`, or no condition for the pseudo-event `any`. */
export function eventCondition(event: string): string {
  return event === 'any' ? '1' : `e.event = ${literal(event)}`;
}

/** Events pp derives or captures itself: autocapture (`pp.*`) and labeled-event rows. */
export function managedEvent(row = 'e'): string {
  return `(startsWith(${row}.event, 'pp.') OR isNotNull(${row}.rule_id))`;
}

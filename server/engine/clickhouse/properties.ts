// An event's top-level properties as ClickHouse columns the appender fills from `props` (JSON
// text). ClickHouse 18.16 has no JSONExtract, and its visitParam* functions match a key at any
// depth, so conditions read these columns instead (conditions.ts):
//   prop_keys     the top-level keys, in the order of the text
//   prop_values   each key's text as DuckDB's json_extract_string gives it: a string as it is, a
//                 number, boolean, object or array as DuckDB writes that JSON, NULL for null
//   prop_numbers  for a JSON number, its double as an Int64 of the same order (numberOrder), else
//                 NULL: numeric filters compare only JSON numbers, exactly (ClickHouse 18.16 reads
//                 some float texts one unit off in an INSERT, never integers)
//   prop_kinds    each value's JSON kind (PROPERTY_KINDS): prop_values reads a string "true" and
//                 the boolean true alike, the property catalog tells them apart by this

/** The property columns of one event. */
export interface PropertyColumns {
  keys: string[];
  values: Array<string | null>;
  numbers: Array<bigint | null>;
  kinds: number[];
}

/** The codes of `PropertyColumns.kinds`. */
export const PROPERTY_KINDS = { null: 0, string: 1, number: 2, boolean: 3, object: 4, array: 5 } as const;

const EMPTY: PropertyColumns = { keys: [], values: [], numbers: [], kinds: [] };

/** The columns of `props` (JSON text of an object, or null). */
export function propertyColumns(props: string | null | undefined): PropertyColumns {
  if (props === null || props === undefined) return EMPTY;
  const parsed: unknown = JSON.parse(props);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return EMPTY;
  const out: PropertyColumns = { keys: [], values: [], numbers: [], kinds: [] };
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    out.keys.push(key);
    out.values.push(value === null ? null : typeof value === 'string' ? value : jsonText(value));
    out.numbers.push(typeof value === 'number' ? numberOrder(value) : null);
    out.kinds.push(kindOf(value));
  }
  return out;
}

function kindOf(value: unknown): number {
  if (value === null) return PROPERTY_KINDS.null;
  if (Array.isArray(value)) return PROPERTY_KINDS.array;
  switch (typeof value) {
    case 'string':
      return PROPERTY_KINDS.string;
    case 'number':
      return PROPERTY_KINDS.number;
    case 'boolean':
      return PROPERTY_KINDS.boolean;
    default:
      return PROPERTY_KINDS.object;
  }
}

const SIGN = 1n << 63n;
const scratch = new DataView(new ArrayBuffer(8));

/**
 * A double as a signed 64-bit integer of the same order (its IEEE bits, negated for negative
 * numbers; -0 as 0): comparing two of these compares the doubles, with no float text read.
 */
export function numberOrder(x: number): bigint {
  if (Number.isNaN(x)) throw new Error('NaN has no order');
  scratch.setFloat64(0, x === 0 ? 0 : x);
  const bits = scratch.getBigUint64(0);
  return bits & SIGN ? -(bits & (SIGN - 1n)) : bits;
}

const HEX = '0123456789ABCDEF';
const SHORT: Record<number, string> = { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** A string as DuckDB writes it inside JSON: control characters as \u00XX (upper-case hex). */
function stringText(s: string): string {
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92) continue;
    out += s.slice(from, i) + (SHORT[c] ?? `\\u00${HEX[c >> 4]}${HEX[c & 15]}`);
    from = i + 1;
  }
  return `${out}${s.slice(from)}"`;
}

/** A number as DuckDB writes it: JavaScript's text without the `+` of an exponent (1e21, not 1e+21). */
function numberText(x: number): string {
  const text = JSON.stringify(x);
  const plus = text.indexOf('e+');
  return plus < 0 ? text : text.slice(0, plus + 1) + text.slice(plus + 2);
}

/** JSON text as DuckDB's json_extract_string gives a non-string value: no spaces, keys in order. */
function jsonText(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return stringText(value);
    case 'number':
      return numberText(value);
    case 'boolean':
      return value ? 'true' : 'false';
  }
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  return `{${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${stringText(k)}:${jsonText(v)}`)
    .join(',')}}`;
}

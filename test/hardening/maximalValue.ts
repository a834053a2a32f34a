// The largest value a JSON schema allows, within the body limit: strings at maxLength in characters
// that cost most (runs of one, '/', '%', '*', '.', non-ASCII), arrays at maxItems, objects full and deep.

export type Schema = Record<string, any>;

export interface Variant {
  /** Characters a string is made of; one string takes one run of them, repeated. */
  alphabet: string;
  /** An integer without a maximum: its largest safe value, or its least. */
  bigIntegers: boolean;
  /** Strings without maxLength stop here, so limits the schema cannot state (filters' 8192 bytes) hold. */
  freeCap?: number;
}

export const VARIANTS: Variant[] = [
  { alphabet: 'a', bigIntegers: true },
  { alphabet: '/%*.é', bigIntegers: false },
  { alphabet: 'a', bigIntegers: false, freeCap: 150 },
];

/** Free-form objects (event props, traits) nest this deep: the ingestion limit of 16 levels. */
export const FREE_DEPTH = 16;
/** Keys of a free-form object or a map without maxProperties. */
const FREE_KEYS = 32;
/** Items of an array without maxItems, before shrinking to the body limit. */
const FREE_ITEMS = 500;
/** The most items any array gets (the largest maxItems of the document is 20,000). */
const MAX_ITEMS = 32_768;
const DAY_MS = 86_400_000;

interface Context {
  components: Record<string, Schema>;
  variant: Variant;
  /** Every array holds at most this many items (the shrinking knob). */
  itemCap: number;
  /** Length of a string without maxLength. */
  freeLength: number;
  /** Strings without maxLength made so far (to share the remaining budget among them). */
  freeStrings: number;
  serial: number;
}

/**
 * The maximal value of `schema` within `limitBytes` of JSON: generated with one-character free
 * strings and the largest cap on array lengths that fits, then again with the room left shared by
 * the free strings.
 */
export function maximalValue(schema: Schema, components: Record<string, Schema>, variant: Variant, limitBytes: number): unknown {
  const make = (itemCap: number, freeLength: number) => {
    const ctx: Context = { components, variant, itemCap, freeLength, freeStrings: 0, serial: 0 };
    const value = valueOf(schema, ctx, 'body', 0);
    return { value, size: Buffer.byteLength(JSON.stringify(value) ?? ''), free: ctx.freeStrings };
  };
  // The largest cap that fits: doubled up from one, then halved back by bisection (each try costs
  // at most about twice the limit to build, where starting high would build hundreds of megabytes).
  let low = 1;
  let high = 1;
  while (high < MAX_ITEMS && make(high * 2, 1).size <= limitBytes) high *= 2;
  low = high;
  high = Math.min(high * 2, MAX_ITEMS);
  while (high - low > Math.max(1, low / 8)) {
    const mid = Math.floor((low + high) / 2);
    if (make(mid, 1).size <= limitBytes) low = mid;
    else high = mid;
  }
  const cap = low;
  const first = make(cap, 1);
  if (first.free === 0) return first.value;
  // The body grows linearly with the free strings' length: one trial gives the slope.
  const trial = Math.min(variant.freeCap ?? Infinity, 64);
  const second = make(cap, trial);
  const slope = Math.max(1, (second.size - first.size) / Math.max(1, trial - 1));
  let length = Math.min(variant.freeCap ?? Infinity, Math.max(1, trial + Math.floor((limitBytes - second.size) / slope)));
  let last = make(cap, length);
  while (last.size > limitBytes && length > 1) last = make(cap, (length = Math.floor(length * 0.95)));
  return last.value;
}

function resolve(schema: Schema, ctx: Context): Schema {
  let s = schema;
  while (s && typeof s.$ref === 'string') s = ctx.components[s.$ref.replace('#/components/schemas/', '')] ?? {};
  return s ?? {};
}

function valueOf(raw: Schema, ctx: Context, name: string, depth: number): unknown {
  const schema = resolve(raw, ctx);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pick(schema.enum, ctx);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((s: Schema) => valueOf(s, ctx, name, depth)));
  if (schema.if) return largest([schema.then, schema.else].filter(Boolean).map((s: Schema) => valueOf(s, ctx, name, depth)));
  const branches = schema.oneOf ?? schema.anyOf;
  if (branches) return largest(branches.map((s: Schema) => valueOf(s, ctx, name, depth)));
  const type = typeOf(schema);
  switch (type) {
    case 'string':
      return stringOf(schema, ctx, name);
    case 'integer':
      return integerOf(schema, ctx);
    case 'number':
      return schema.maximum ?? (ctx.variant.bigIntegers ? 1e15 : (schema.minimum ?? 1.5));
    case 'boolean':
      return true;
    case 'array':
      return arrayOf(schema, ctx, name, depth);
    case 'object':
      return objectOf(schema, ctx, depth);
    case 'null':
      return null;
    default:
      return depth < FREE_DEPTH ? freeObject(ctx, depth) : stringOf({}, ctx, name);
  }
}

function typeOf(schema: Schema): string | undefined {
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const real = types.filter((t) => t !== 'null');
  if (real.length > 0) return real[0];
  if (types.length > 0) return 'null';
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function pick<T>(values: T[], ctx: Context): T {
  ctx.serial += 1;
  return values[ctx.serial % values.length]!;
}

function largest(values: unknown[]): unknown {
  return values.reduce((a, b) => (JSON.stringify(b).length > JSON.stringify(a).length ? b : a));
}

function integerOf(schema: Schema, ctx: Context): number {
  if (schema.maximum !== undefined) return schema.maximum;
  if (ctx.variant.bigIntegers) return schema.format === 'int32' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  return schema.minimum ?? 1;
}

/** A run of the variant's alphabet, `length` characters, ending in a serial so array items differ. */
function run(ctx: Context, length: number): string {
  ctx.serial += 1;
  const tag = String(ctx.serial);
  if (length <= tag.length) return tag.slice(-length);
  const alphabet = ctx.variant.alphabet;
  const body = alphabet.length === 1 ? alphabet.repeat(length - tag.length) : alphabet.repeat(Math.ceil(length / alphabet.length)).slice(0, length - tag.length);
  return body + tag;
}

function stringOf(schema: Schema, ctx: Context, name: string): string {
  const max: number | undefined = schema.maxLength;
  const length = max ?? ctx.freeLength;
  if (max === undefined) ctx.freeStrings += 1;
  const special = formatted(schema.format, name, length);
  if (special !== undefined) return special;
  const plain = run(ctx, Math.max(length, schema.minLength ?? 1));
  if (!schema.pattern) return plain;
  const re = new RegExp(schema.pattern, 'u');
  if (re.test(plain)) return plain;
  const sampled = longestMatch(schema.pattern, max ?? 64);
  return sampled !== undefined && re.test(sampled) ? sampled : plain;
}

/** Values of formats: dates spanning the widest range reports allow (400 days), long addresses. */
function formatted(format: string | undefined, name: string, length: number): string | undefined {
  const today = new Date();
  const from = /from|start|since/i.test(name);
  const ahead = /expire/i.test(name) ? 365 * DAY_MS : 0;
  switch (format) {
    case 'date':
      return new Date(today.getTime() - (from ? 399 : 0) * DAY_MS).toISOString().slice(0, 10);
    case 'date-time':
      return new Date(today.getTime() + ahead - (from ? 399 * DAY_MS : 0)).toISOString();
    case 'email':
      return `${'a'.repeat(64)}@${'b'.repeat(Math.max(1, Math.min(63, length - 80)))}.example.test`;
    case 'uri':
      return `https://example.com/${'/'.repeat(Math.max(0, Math.min(length, 8192) - 21))}`;
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
    default:
      return undefined;
  }
}

function arrayOf(schema: Schema, ctx: Context, name: string, depth: number): unknown[] {
  const wanted = Math.min(schema.maxItems ?? FREE_ITEMS, ctx.itemCap);
  const count = Math.max(wanted, schema.minItems ?? 0);
  const items = resolve(schema.items ?? {}, ctx);
  if (schema.uniqueItems && Array.isArray(items.enum)) return items.enum.slice(0, count);
  return Array.from({ length: count }, () => valueOf(items, ctx, name, depth + 1));
}

function objectOf(schema: Schema, ctx: Context, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries<Schema>(schema.properties ?? {})) out[key] = valueOf(prop, ctx, key, depth + 1);
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object') {
    const keys = Math.min(schema.maxProperties ?? FREE_KEYS, ctx.itemCap);
    for (let i = 0; i < keys; i++) out[`${run(ctx, 24)}_${i}`] = valueOf(extra, ctx, `key${i}`, depth + 1);
  } else if (!schema.properties && extra !== false) {
    return freeObject(ctx, depth);
  }
  return out;
}

/** A free-form object: a chain nested to the depth limit, each level with a few long keys. */
function freeObject(ctx: Context, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keys = Math.min(4, ctx.itemCap);
  for (let i = 0; i < keys; i++) out[`k${i}_${run(ctx, 32)}`] = stringOf({}, ctx, `k${i}`);
  if (depth + 1 < FREE_DEPTH) out.nested = freeObject(ctx, depth + 1);
  return out;
}

/**
 * The longest string a simple anchored pattern matches: literals, escapes, character classes and
 * groups of alternatives, each repeated as often as its quantifier allows (capped at `cap`).
 * Undefined for anything else; the caller checks the result against the pattern anyway.
 */
export function longestMatch(pattern: string, cap: number): string | undefined {
  const src = pattern.replace(/^\^/, '').replace(/\$$/, '');
  let i = 0;
  const atom = (): string | undefined => {
    const c = src[i]!;
    if (c === '[') {
      const end = src.indexOf(']', i + 1);
      if (end < 0) return undefined;
      const body = src.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('^')) return body.includes('*') ? 'a' : '*';
      // A range's upper end, e.g. 9 of 0-9, or the last listed character: prefer '.', '-' or '_'.
      const singles = body.replace(/.-./g, '');
      const hurt = ['.', '_', '+', '-'].find((h) => singles.includes(h));
      return hurt ?? /.-./.exec(body)?.[0][2] ?? body[0];
    }
    if (c === '(') {
      let level = 0;
      let j = i;
      for (; j < src.length; j++) {
        if (src[j] === '(') level++;
        if (src[j] === ')' && --level === 0) break;
      }
      const inner = src.slice(i + 1, j).replace(/^\?:/, '');
      i = j + 1;
      const options = inner.split('|').map((o) => longestMatch(o, cap));
      if (options.some((o) => o === undefined)) return undefined;
      return (options as string[]).reduce((a, b) => (b.length > a.length ? b : a));
    }
    if (c === '\\') {
      const e = src[i + 1]!;
      i += 2;
      return ({ d: '9', S: 'a', w: 'z', s: ' ' } as Record<string, string>)[e] ?? e;
    }
    if (c === '.') {
      i++;
      return 'a';
    }
    i++;
    return c;
  };
  let out = '';
  while (i < src.length) {
    const a = atom();
    if (a === undefined) return undefined;
    const q = /^(\{(\d+)(?:,(\d*))?\}|[*+?])/.exec(src.slice(i));
    let times = 1;
    if (q) {
      i += q[0].length;
      if (q[0] === '?') times = 1;
      else if (q[0] === '*' || q[0] === '+') times = cap;
      else times = q[3] === undefined ? Number(q[2]) : q[3] === '' ? cap : Number(q[3]);
    }
    out += a.repeat(Math.min(times, cap));
  }
  return out;
}

// The element columns of a pp.click or pp.form_submit event (migrations/duckdb/0028): the chain
// the tracker captured, one list entry per element (target first), kept as the rules' matching
// reads it. Computed here as events are stored; the pp_el_* macros of that migration compute the
// same from the JSON chain for events stored before it, and for seeded ones.

/** The events whose chains rules match, the only ones with element columns. */
export const ELEMENT_EVENTS: ReadonlySet<string> = new Set(['pp.click', 'pp.form_submit']);

import { ATTR_END, ATTR_VALUE, ELEMENT_COLUMNS } from '../engine/elementEncoding.js';

export { ATTR_END, ATTR_VALUE, ELEMENT_COLUMNS };
/** Attribute names kept: those the tracker captures are all of this shape. */
export const ATTRIBUTE_NAME = /^[a-z][a-z0-9_:-]*$/;

/** A column computed in SQL from a JSON chain, by the macro of migration 0028 named after it. */
const elementColumnSql = (column: (typeof ELEMENT_COLUMNS)[number], elements: string): string => `pp_${column}(${elements})`;

/** SQL of every column for a row of `event` with the chain `elements`: NULL for other events. */
export function elementColumnsSql(event: string, elements: string): string[] {
  const named = [...ELEMENT_EVENTS].map((e) => `'${e}'`).join(', ');
  return ELEMENT_COLUMNS.map((c) => `CASE WHEN ${event} IN (${named}) THEN ${elementColumnSql(c, elements)} END`);
}

export interface ElementColumns {
  el_tags: Array<string | null>;
  el_ids: Array<string | null>;
  el_classes: Array<string | null>;
  el_nth: Array<number | null>;
  el_attrs: string[];
  el_text: string | null;
}

const stringOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const clean = (s: string): string => s.replace(/[\x1e\x1f]/g, ' ');

function classList(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string' && c !== '') : [];
}

/** One element's attributes encoded: id, class, then each captured string attribute. */
export function encodeAttributes(element: Record<string, unknown>): string {
  let out = ATTR_END;
  const id = stringOf(element.id);
  if (id) out += `id${ATTR_VALUE}${clean(id)}${ATTR_END}`;
  const classes = classList(element.classes);
  if (classes.length > 0) out += `class${ATTR_VALUE}${clean(classes.join(' '))}${ATTR_END}`;
  const attributes = element.attributes;
  if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
    for (const [name, value] of Object.entries(attributes)) {
      if (ATTRIBUTE_NAME.test(name) && typeof value === 'string') out += `${name}${ATTR_VALUE}${clean(value)}${ATTR_END}`;
    }
  }
  return out;
}

/** The columns of an event's chain; null for events that have none or whose chain is not a list. */
export function elementColumns(event: string, elements: unknown): ElementColumns | null {
  if (!ELEMENT_EVENTS.has(event) || !Array.isArray(elements)) return null;
  const chain = elements.map((e) => (e && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : {}));
  return {
    el_tags: chain.map((e) => stringOf(e.tag)?.toLowerCase() ?? null),
    el_ids: chain.map((e) => stringOf(e.id) || null),
    el_classes: chain.map((e) => {
      const classes = classList(e.classes);
      return classes.length > 0 ? ` ${classes.join(' ')} ` : null;
    }),
    el_nth: chain.map((e) => (Number.isInteger(e.nth_child) && Math.abs(e.nth_child as number) <= 2147483647 ? (e.nth_child as number) : null)),
    el_attrs: chain.map(encodeAttributes),
    el_text: chain.length > 0 ? stringOf(chain[0]!.text) : null,
  };
}

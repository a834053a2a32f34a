// A rule's conditions as one SQL condition on an event row `e` (docs/labeled-events.md#matching),
// over the element columns stored at ingest (server/ingest/elementColumns.ts). Derivation over
// all history and the preview match with it; the ingest writer matches with the same conditions
// read in TypeScript (matchRow.ts). Every value is bound.

import type { Binder } from '../engine/sql.js';
import { ATTR_END, ATTR_VALUE } from '../ingest/elementColumns.js';
import { normalizePageUrl, pagePathSql, pageUrlsSql } from '../behavior/pageUrl.js';
import { parseSelector, type Compound, type Selector } from './selector.js';

export const BASE_EVENTS = ['pp.click', 'pp.form_submit', 'pp.page_view'] as const;
export type BaseEvent = (typeof BASE_EVENTS)[number];

export interface RuleAttribute {
  name: string;
  op: 'eq' | 'contains' | 'exists';
  value?: string;
}

/** What a rule matches, as checkRuleBody leaves it: empty strings null, the text to match collapsed. */
export interface RuleConditions {
  base_event: BaseEvent;
  selector: string | null;
  url_pattern: string | null;
  match_text: string | null;
  attributes: RuleAttribute[];
}

/** The SQL condition for element `i` (a 1-based list index) of the chain. */
function compoundAt(b: Binder, c: Compound, i: string): string[] {
  const parts: string[] = [];
  if (c.tag) parts.push(`e.el_tags[${i}] = ${b.bind(c.tag)}`);
  for (const id of c.ids) parts.push(`e.el_ids[${i}] = ${b.bind(id)}`);
  for (const cls of c.classes) parts.push(`contains(e.el_classes[${i}], ${b.bind(` ${cls} `)})`);
  for (const n of c.nthChild) parts.push(`e.el_nth[${i}] = ${b.bind(n)}`);
  for (const a of c.attributes) parts.push(attributeAt(b, a, i));
  return parts;
}

function attributeAt(b: Binder, a: RuleAttribute, i: string): string {
  const key = `${ATTR_END}${a.name}${ATTR_VALUE}`;
  if (a.op === 'exists') return `contains(e.el_attrs[${i}], ${b.bind(key)})`;
  if (a.op === 'eq') return `contains(e.el_attrs[${i}], ${b.bind(`${key}${a.value!}${ATTR_END}`)})`;
  return `contains(split_part(split_part(e.el_attrs[${i}], ${b.bind(key)}, 2), chr(30), 1), ${b.bind(a.value!)})`;
}

const all = (parts: string[]) => (parts.length === 0 ? 'true' : parts.join(' AND '));

/**
 * Whether some element of the chain matches the rightmost compound and `attributes`, with the
 * compounds to its left matching its ancestors as the combinators say. The selector is read as an
 * automaton walking the chain once, from its top ancestor down to the target: bit k of the state
 * says compounds 0..k-1 matched above, and stays set while compound k may still come further down
 * (after a descendant combinator, not after a child one); bit m says the whole selector matched.
 * Linear in the chain for each compound, where trying every ancestor for every descendant
 * combinator grows as the chain's length to the power of the compounds.
 */
function chainCondition(b: Binder, sel: Selector, attributes: RuleAttribute[]): string {
  const m = sel.compounds.length;
  let persist = 1 | (1 << m);
  for (let k = 1; k < m; k++) if (sel.combinators[k - 1] !== 'child') persist |= 1 << k;
  const steps = sel.compounds.map((c, k) => {
    const here = [...compoundAt(b, c, 'pos'), ...(k === m - 1 ? attributes.map((a) => attributeAt(b, a, 'pos')) : [])];
    return `CASE WHEN (state & ${1 << k}) <> 0 AND ${all(here)} THEN ${1 << (k + 1)} ELSE 0 END`;
  });
  const step = [`(state & ${persist})`, ...steps].join(' | ');
  return `(list_reduce(list_prepend(CAST(1 AS BIGINT), range(CAST(len(e.el_tags) AS BIGINT), 0, -1)), lambda state, pos: ${step}) & ${1 << m}) <> 0`;
}

/**
 * A `*` pattern as an RE2 expression for regexp_full_match: the rest literal, `*` any run of
 * characters, newlines included. RE2 runs in time linear in its subject, where LIKE backtracks
 * exponentially on patterns with many `*`.
 */
export function wildcardRegex(pattern: string): string {
  return `(?s)${pattern.split('*').map((s) => s.replace(/[\\.+?()|[\]{}^$]/g, '\\$&')).join('.*')}`;
}

/** The condition on `page` (a normalized URL) that a url_pattern sets. */
function pageCondition(b: Binder, pattern: string): string {
  const onPath = pattern.startsWith('/');
  const subject = onPath ? pagePathSql('page') : 'page';
  if (pattern.includes('*')) return `regexp_full_match(${subject}, ${b.bind(wildcardRegex(pattern))})`;
  return `${subject} = ${b.bind(normalizePageUrl(pattern) ?? pattern)}`;
}

/**
 * The rule's condition on `e`. `urls` builds, when the rule has a url_pattern, a relation with a
 * text column `url` holding at least the URLs of the events it is applied to (distinct ones: each
 * is normalized once); it binds its values only then, as a statement must use every value bound.
 */
export function ruleCondition(b: Binder, rule: RuleConditions, urls: () => string): string {
  const parts = [`e.event = ${b.bind(rule.base_event)}`];
  if (rule.url_pattern) {
    parts.push(`e.url IN (SELECT url FROM (${pageUrlsSql(urls())}) WHERE ${pageCondition(b, rule.url_pattern)})`);
  }
  if (rule.base_event !== 'pp.page_view') {
    if (rule.match_text) parts.push(`lower(e.el_text) = lower(${b.bind(rule.match_text)})`);
    if (rule.selector) parts.push(chainCondition(b, parseSelector(rule.selector), rule.attributes));
    else if (rule.attributes.length > 0) parts.push(all(rule.attributes.map((a) => attributeAt(b, a, '1'))));
  }
  return `(${parts.join(' AND ')})`;
}

// A rule's conditions as one SQL condition on an event row `e` (docs/labeled-events.md#matching),
// over the element columns stored at ingest (server/ingest/elementColumns.ts). Derivation over
// all history and the preview match with it; the ingest writer matches with the same conditions
// read in TypeScript (matchRow.ts). Every value is bound.

import type { Binder } from '../queries/sql.js';
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
 * Whether some element `i0` of the chain matches the rightmost compound and `attributes`, with the
 * compounds to its left matching its ancestors as the combinators say. Lambdas nest one level per
 * compound; a list index past the chain is NULL, which fails the condition.
 */
function chainCondition(b: Binder, sel: Selector, attributes: RuleAttribute[]): string {
  const compounds = [...sel.compounds].reverse();
  const combinators = [...sel.combinators].reverse();
  const size = 'len(e.el_tags)';
  const rest = (k: number, i: string): string => {
    if (k === compounds.length) return 'true';
    const here = compounds[k]!;
    if (combinators[k - 1] === 'child') {
      const j = `(${i} + 1)`;
      return all([...compoundAt(b, here, j), rest(k + 1, j)]);
    }
    const j = `i${k}`;
    return `len(list_filter(range(${i} + 1, ${size} + 1), lambda ${j}: ${all([...compoundAt(b, here, j), rest(k + 1, j)])})) > 0`;
  };
  const first = [...compoundAt(b, compounds[0]!, 'i0'), ...attributes.map((a) => attributeAt(b, a, 'i0')), rest(1, 'i0')];
  return `len(list_filter(range(1, ${size} + 1), lambda i0: ${all(first)})) > 0`;
}

/** A `*` pattern as a LIKE pattern with `\` as its escape. */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
}

/** The condition on `page` (a normalized URL) that a url_pattern sets. */
function pageCondition(b: Binder, pattern: string): string {
  const onPath = pattern.startsWith('/');
  const subject = onPath ? pagePathSql('page') : 'page';
  if (pattern.includes('*')) return `${subject} LIKE ${b.bind(likePattern(pattern))} ESCAPE '\\'`;
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

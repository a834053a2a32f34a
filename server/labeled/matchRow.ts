// A rule's conditions as a predicate on an event about to be stored: the condition of matchSql.ts
// read the same way over the same element columns, for deriving labels inside the ingest writer's
// group commit, where a SQL statement per group would cost more than the group itself. The
// randomized tests hold both to the reference matcher (test/oracles/labeled.ts).

import type { EventRow } from '../ingest/normalizeEvent.js';
import { ATTR_END, ATTR_VALUE } from '../ingest/elementColumns.js';
import { normalizePageUrl, pagePath } from '../behavior/pageUrl.js';
import { parseSelector, type Compound } from './selector.js';
import type { RuleAttribute, RuleConditions } from './matchSql.js';

/**
 * An event as rules read it: the row, with its normalized URL and lowercased text worked out once
 * for all the rules that ask (`undefined` until then).
 */
export interface RowView {
  row: EventRow;
  page?: string | null;
  /** The page without its origin: path and hash route. */
  path?: string | null;
  text?: string | null;
  /** Normalized URLs already worked out for other rows (the events of a group share few URLs). */
  pages: Map<string, string | null>;
}

function pageOf(v: RowView): string | null {
  if (v.page === undefined) {
    const url = v.row.url;
    if (url === null) v.page = null;
    else {
      let page = v.pages.get(url);
      if (page === undefined) v.pages.set(url, (page = normalizePageUrl(url)));
      v.page = page;
    }
  }
  return v.page;
}

function pathOf(v: RowView): string | null {
  if (v.path === undefined) {
    const page = pageOf(v);
    v.path = page === null ? null : pagePath(page);
  }
  return v.path;
}

function lowerTextOf(v: RowView): string | null {
  if (v.text === undefined) v.text = v.row.el_text == null ? null : v.row.el_text.toLowerCase();
  return v.text;
}

export type RowMatcher = (v: RowView) => boolean;

/** The element columns of a row, the lists indexed from 0. */
type Columns = Pick<EventRow, 'el_tags' | 'el_ids' | 'el_classes' | 'el_nth' | 'el_attrs'>;
type ElementTest = (c: Columns, i: number) => boolean;

function attributeTest(a: RuleAttribute): ElementTest {
  const key = `${ATTR_END}${a.name}${ATTR_VALUE}`;
  if (a.op === 'exists') return (c, i) => c.el_attrs?.[i]?.includes(key) ?? false;
  if (a.op === 'eq') {
    const pair = `${key}${a.value!}${ATTR_END}`;
    return (c, i) => c.el_attrs?.[i]?.includes(pair) ?? false;
  }
  const part = a.value!;
  return (c, i) => {
    const attrs = c.el_attrs?.[i];
    if (attrs == null) return false;
    const at = attrs.indexOf(key);
    const value = at < 0 ? '' : attrs.slice(at + key.length).split(ATTR_END, 1)[0]!;
    return value.includes(part);
  };
}

function compoundTest(k: Compound): ElementTest {
  const tests: ElementTest[] = [];
  if (k.tag) tests.push((c, i) => c.el_tags?.[i] === k.tag);
  for (const id of k.ids) tests.push((c, i) => c.el_ids?.[i] === id);
  for (const cls of k.classes) tests.push((c, i) => c.el_classes?.[i]?.includes(` ${cls} `) ?? false);
  for (const n of k.nthChild) tests.push((c, i) => c.el_nth?.[i] === n);
  for (const a of k.attributes) tests.push(attributeTest(a));
  return (c, i) => tests.every((t) => t(c, i));
}

/**
 * Whether some element matches the rightmost compound and `attributes`, its ancestors the rest.
 * Whether compounds k.. match with compound k on element i is remembered per call: a descendant
 * combinator tries every ancestor, and without it a chain of 50 elements and a selector of 12
 * descendant compounds that fails at its leftmost one would be walked along every ordered choice.
 */
function chainTest(selector: string, attributes: RuleAttribute[]): (c: Columns) => boolean {
  const sel = parseSelector(selector);
  const compounds = [...sel.compounds].reverse().map(compoundTest);
  const combinators = [...sel.combinators].reverse();
  const attrs = attributes.map(attributeTest);
  return (c) => {
    const size = c.el_tags?.length ?? 0;
    // 0 unknown, 1 matches, 2 does not: compounds k.. with compound k on element i, at k * size + i.
    const known = new Uint8Array(compounds.length * size);
    const from = (k: number, i: number): boolean => {
      if (i >= size) return false;
      const at = k * size + i;
      if (known[at] === 0) known[at] = compounds[k]!(c, i) && after(k, i) ? 1 : 2;
      return known[at] === 1;
    };
    /** Whether the compounds after k match ancestors of element i, compound k matching it. */
    const after = (k: number, i: number): boolean => {
      if (k + 1 === compounds.length) return true;
      if (combinators[k] === 'child') return from(k + 1, i + 1);
      for (let j = i + 1; j < size; j++) if (from(k + 1, j)) return true;
      return false;
    };
    for (let i = 0; i < size; i++) if (compounds[0]!(c, i) && attrs.every((a) => a(c, i)) && after(0, i)) return true;
    return false;
  };
}

/**
 * Whether `subject` is `pattern` with each `*` standing for any run of characters: the first
 * segment a prefix, the last a suffix, those between found left to right, each at its earliest
 * place after the one before (the earliest leaves the most room for the rest, so no choice is ever
 * revisited). Linear in the subject for each segment, where a backtracking regex is exponential.
 */
export function wildcardMatches(pattern: string, subject: string): boolean {
  const segments = pattern.split('*');
  if (segments.length === 1) return pattern === subject;
  const first = segments[0]!;
  const last = segments[segments.length - 1]!;
  const end = subject.length - last.length;
  if (end < first.length || !subject.startsWith(first) || !subject.endsWith(last)) return false;
  let at = first.length;
  for (let k = 1; k < segments.length - 1; k++) {
    const found = subject.indexOf(segments[k]!, at);
    if (found < 0 || found + segments[k]!.length > end) return false;
    at = found + segments[k]!.length;
  }
  return true;
}

/** The test of a url_pattern on an event: on its page, or on the page's path when the pattern starts with `/`. */
function urlTest(pattern: string): RowMatcher {
  const subject = pattern.startsWith('/') ? pathOf : pageOf;
  let test: (s: string) => boolean;
  if (pattern.includes('*')) test = (s) => wildcardMatches(pattern, s);
  else {
    const exact = normalizePageUrl(pattern) ?? pattern;
    test = (s) => s === exact;
  }
  return (v) => {
    const s = subject(v);
    return s !== null && test(s);
  };
}

/** The rule as a predicate on a row with its element columns. */
export function compileRule(rule: RuleConditions): RowMatcher {
  const tests: RowMatcher[] = [(v) => v.row.event === rule.base_event];
  if (rule.base_event !== 'pp.page_view') {
    if (rule.match_text) {
      const text = rule.match_text.toLowerCase();
      tests.push((v) => lowerTextOf(v) === text);
    }
    if (rule.selector) {
      const chain = chainTest(rule.selector, rule.attributes);
      tests.push((v) => chain(v.row));
    } else if (rule.attributes.length > 0) {
      const attrs = rule.attributes.map(attributeTest);
      tests.push((v) => attrs.every((a) => a(v.row, 0)));
    }
  }
  // Last: normalizing the URL costs most.
  if (rule.url_pattern) tests.push(urlTest(rule.url_pattern));
  return (v) => tests.every((t) => t(v));
}

// Reference matching of labeled-event rules (docs/labeled-events.md, "Matching"): a small selector
// parser, a backtracking walk over the element chain, URLs through the reports' URL oracle. Plain
// and slow on purpose; nothing here is shared with the server's implementation.

import { pageOfUrl } from './behavior.js';

export type BaseEvent = 'pp.click' | 'pp.form_submit' | 'pp.page_view';

export interface AttributeCondition {
  name: string;
  op: 'eq' | 'contains' | 'exists';
  value?: string;
}

export interface OracleRule {
  base_event: BaseEvent;
  selector: string | null;
  url_pattern: string | null;
  match_text: string | null;
  attributes: AttributeCondition[];
}

export interface ElementInfo {
  tag: string;
  id?: string;
  classes?: string[];
  nth_child?: number;
  text?: string;
  attributes?: Record<string, string>;
}

export interface OracleEvent {
  uuid: string;
  event: string;
  ts: Date;
  url: string | null;
  /** Target first, ancestors after. */
  elements: ElementInfo[] | null;
}

// --- selectors -------------------------------------------------------------------------------

export interface AttributeSelector {
  /** Lowercased. */
  name: string;
  value?: string;
}

export interface Compound {
  /** Lowercased. */
  tag?: string;
  ids: string[];
  classes: string[];
  attributes: AttributeSelector[];
  nthChild: number[];
}

export interface ParsedSelector {
  compounds: Compound[];
  /** combinators[k] joins compounds[k] (ancestor side) and compounds[k + 1]. */
  combinators: Array<'>' | ' '>;
}

const NAME_CHAR = /[A-Za-z0-9_-]/;

/** Parses the documented subset; throws on anything outside it. */
export function parseSelector(text: string): ParsedSelector {
  const s = text.trim();
  let pos = 0;
  const fail = (why: string): never => {
    throw new Error(`unsupported selector ${JSON.stringify(text)} at ${pos}: ${why}`);
  };
  const name = (): string => {
    const start = pos;
    while (pos < s.length && NAME_CHAR.test(s[pos]!)) pos += 1;
    if (pos === start) fail('a name was expected');
    return s.slice(start, pos);
  };
  const attributeValue = (): string => {
    const quote = s[pos];
    if (quote === '"' || quote === "'") {
      const end = s.indexOf(quote, pos + 1);
      if (end < 0) fail('unterminated quote');
      const value = s.slice(pos + 1, end);
      pos = end + 1;
      return value;
    }
    return name();
  };
  const compound = (): Compound => {
    const c: Compound = { ids: [], classes: [], attributes: [], nthChild: [] };
    let parts = 0;
    if (pos < s.length && /[A-Za-z]/.test(s[pos]!)) {
      c.tag = name().toLowerCase();
      parts += 1;
    }
    for (;;) {
      const ch = s[pos];
      if (ch === '#') {
        pos += 1;
        c.ids.push(name());
      } else if (ch === '.') {
        pos += 1;
        c.classes.push(name());
      } else if (ch === '[') {
        pos += 1;
        const attr: AttributeSelector = { name: name().toLowerCase() };
        if (s[pos] === '=') {
          pos += 1;
          attr.value = attributeValue();
        }
        if (s[pos] !== ']') fail('"]" was expected');
        pos += 1;
        c.attributes.push(attr);
      } else if (ch === ':') {
        const m = /^:nth-child\((\d+)\)/.exec(s.slice(pos));
        if (!m) fail('only :nth-child(n) is supported');
        c.nthChild.push(Number(m![1]));
        pos += m![0].length;
      } else {
        break;
      }
      parts += 1;
    }
    if (parts === 0) fail('a compound selector was expected');
    return c;
  };
  const out: ParsedSelector = { compounds: [compound()], combinators: [] };
  while (pos < s.length) {
    let sawSpace = false;
    while (pos < s.length && /\s/.test(s[pos]!)) {
      pos += 1;
      sawSpace = true;
    }
    let combinator: '>' | ' ' = ' ';
    if (s[pos] === '>') {
      combinator = '>';
      pos += 1;
      while (pos < s.length && /\s/.test(s[pos]!)) pos += 1;
    } else if (!sawSpace) {
      fail('a combinator was expected');
    }
    out.combinators.push(combinator);
    out.compounds.push(compound());
  }
  return out;
}

/** The value a selector or an attribute condition reads from an element; undefined when absent. */
export function attributeOf(e: ElementInfo, name: string): string | undefined {
  const n = name.toLowerCase();
  if (n === 'id') return e.id;
  if (n === 'class') return e.classes && e.classes.length > 0 ? e.classes.join(' ') : undefined;
  return e.attributes?.[n];
}

export function compoundMatches(c: Compound, e: ElementInfo): boolean {
  if (c.tag !== undefined && e.tag.toLowerCase() !== c.tag) return false;
  if (!c.ids.every((id) => e.id === id)) return false;
  if (!c.classes.every((cls) => (e.classes ?? []).includes(cls))) return false;
  if (!c.nthChild.every((n) => e.nth_child === n)) return false;
  return c.attributes.every((a) => {
    const v = attributeOf(e, a.name);
    return a.value === undefined ? v !== undefined : v === a.value;
  });
}

/** Whether compounds[0..k] match with compounds[k] on chain[i], trying every ancestor choice. */
function matchesAt(sel: ParsedSelector, k: number, chain: ElementInfo[], i: number): boolean {
  if (i >= chain.length || !compoundMatches(sel.compounds[k]!, chain[i]!)) return false;
  if (k === 0) return true;
  if (sel.combinators[k - 1] === '>') return matchesAt(sel, k - 1, chain, i + 1);
  for (let j = i + 1; j < chain.length; j++) if (matchesAt(sel, k - 1, chain, j)) return true;
  return false;
}

/** Indexes of the chain the whole selector matches with its rightmost compound there. */
export function selectorMatchIndexes(selector: string, chain: ElementInfo[]): number[] {
  const sel = parseSelector(selector);
  const out: number[] = [];
  for (let i = 0; i < chain.length; i++) if (matchesAt(sel, sel.compounds.length - 1, chain, i)) out.push(i);
  return out;
}

function attributeHolds(e: ElementInfo, c: AttributeCondition): boolean {
  const v = attributeOf(e, c.name);
  if (c.op === 'exists') return v !== undefined;
  if (v === undefined) return false;
  return c.op === 'eq' ? v === c.value : v.includes(c.value ?? '');
}

// --- URLs ------------------------------------------------------------------------------------

/** The path of a normalized URL with its hash route: what a pattern starting with `/` is compared with. */
export function pathPartOfPage(page: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/#?]*(.*)$/s.exec(page);
  return m ? m[1]! : page;
}

/** A path pattern without `*` normalized like a URL's path: no query, no plain fragment, no trailing slash. */
function normalizePathPattern(pattern: string): string {
  const m = /^([^#?]*)(\?[^#]*)?(#.*)?$/s.exec(pattern)!;
  const path = m[1]!.length > 1 ? m[1]!.replace(/\/+$/, '') || '/' : m[1]!;
  const fragment = m[3] ?? '';
  return path + (fragment.startsWith('#/') || fragment.startsWith('#!') ? fragment : '');
}

function wildcardMatches(pattern: string, subject: string): boolean {
  // Dynamic programming over (pattern position, subject position); `*` takes any run.
  let reachable = new Array<boolean>(subject.length + 1).fill(false);
  reachable[0] = true;
  for (const ch of pattern) {
    const next = new Array<boolean>(subject.length + 1).fill(false);
    for (let j = 0; j <= subject.length; j++) {
      if (ch === '*') next[j] = reachable[j]! || (j > 0 && next[j - 1]!);
      else next[j] = j > 0 && reachable[j - 1]! && subject[j - 1] === ch;
    }
    reachable = next;
  }
  return reachable[subject.length]!;
}

export function urlMatches(pattern: string, url: string | null): boolean {
  if (url === null || url === '') return false;
  const page = pageOfUrl(url)!;
  const onPath = pattern.startsWith('/');
  const subject = onPath ? pathPartOfPage(page) : page;
  if (pattern.includes('*')) return wildcardMatches(pattern, subject);
  return subject === (onPath ? normalizePathPattern(pattern) : pageOfUrl(pattern));
}

// --- rules -----------------------------------------------------------------------------------

const set = (v: string | null | undefined): v is string => v !== null && v !== undefined && v !== '';

export function ruleMatches(rule: OracleRule, event: OracleEvent): boolean {
  if (event.event !== rule.base_event) return false;
  if (set(rule.url_pattern) && !urlMatches(rule.url_pattern, event.url)) return false;
  if (rule.base_event === 'pp.page_view') return true;
  const chain = event.elements ?? [];
  if (set(rule.match_text)) {
    const text = chain[0]?.text;
    if (text === undefined || text.toLowerCase() !== rule.match_text.trim().replace(/\s+/g, ' ').toLowerCase()) return false;
  }
  const candidates = set(rule.selector) ? selectorMatchIndexes(rule.selector, chain) : chain.length > 0 ? [0] : [];
  const needsElement = set(rule.selector) || rule.attributes.length > 0;
  if (!needsElement) return true;
  // Some element the selector matches (the target without a selector) carries every attribute.
  return candidates.some((i) => rule.attributes.every((c) => attributeHolds(chain[i]!, c)));
}

export const PREVIEW_WINDOW_MS = 30 * 24 * 3_600_000;

/** Events the rule matches with `now − 30 × 24 h < ts ≤ now`: the lower bound excluded, `now` included. */
export function previewCount(rule: OracleRule, events: OracleEvent[], now: Date): number {
  const from = now.getTime() - PREVIEW_WINDOW_MS;
  return events.filter((e) => e.ts.getTime() > from && e.ts.getTime() <= now.getTime() && ruleMatches(rule, e)).length;
}

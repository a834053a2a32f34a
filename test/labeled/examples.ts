// The hand-made rule and chain examples of the labeled-event matching tests, and what those tests
// share: the API body of a rule, events as seeded and as the reference reads them, and the
// comparison of derived (rule, source) pairs with the reference's.

import { randomUUID } from 'node:crypto';
import type { SeedEvent } from '../support/seedEvents.js';
import { ruleMatches, type ElementInfo, type OracleEvent, type OracleRule } from '../oracles/labeled.js';
import type { EventInput } from './arbitraries.js';

/** The API body of a rule; a page-view rule sends only what applies to it. */
export function ruleBody(rule: OracleRule, eventName?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { base_event: rule.base_event, url_pattern: rule.url_pattern };
  if (rule.base_event !== 'pp.page_view') Object.assign(body, { selector: rule.selector, match_text: rule.match_text, attributes: rule.attributes });
  if (eventName !== undefined) body.event_name = eventName;
  return body;
}

export function expectedPairs(rules: Array<{ id: number; rule: OracleRule }>, events: OracleEvent[]): string[] {
  return rules.flatMap(({ id, rule }) => events.filter((e) => ruleMatches(rule, e)).map((e) => `${id}|${e.uuid}`)).sort();
}

/** What differs between two sorted pair lists, with the events and rules involved. */
export function pairDiff(actual: string[], expected: string[], rules: Array<{ id: number; rule: OracleRule }>, events: OracleEvent[]): string | undefined {
  const a = new Set(actual);
  const e = new Set(expected);
  const extra = actual.filter((x) => !e.has(x));
  const missing = expected.filter((x) => !a.has(x));
  if (extra.length === 0 && missing.length === 0) return undefined;
  const show = (pair: string) => {
    const [id, uuid] = pair.split('|');
    const rule = rules.find((r) => String(r.id) === id)?.rule;
    const ev = events.find((x) => x.uuid === uuid);
    return JSON.stringify({ rule, event: ev && { event: ev.event, ts: ev.ts, url: ev.url, elements: ev.elements } });
  };
  return (
    [...extra.slice(0, 3).map((x) => `derived but not expected: ${show(x)}`), ...missing.slice(0, 3).map((x) => `expected but not derived: ${show(x)}`)].join('\n') +
    `\n(${extra.length} extra, ${missing.length} missing)`
  );
}

export const toSeed = (e: EventInput & { uuid: string }): SeedEvent => ({
  event: e.event,
  uuid: e.uuid,
  ts: e.ts,
  anonymous_id: e.anonymous_id,
  session_id: `s-${e.anonymous_id}`,
  ...(e.url !== null ? { url: e.url } : {}),
  ...(e.elements !== null ? { elements: e.elements as unknown as Record<string, unknown>[] } : {}),
  props: { revenue: 5 },
});

export const toOracle = (e: EventInput & { uuid: string }): OracleEvent => ({ uuid: e.uuid, event: e.event, ts: e.ts, url: e.url, elements: e.elements });

export const rule = (r: Partial<OracleRule>): OracleRule => ({ base_event: 'pp.click', selector: null, url_pattern: null, match_text: null, attributes: [], ...r });
export const SPAN_IN_BUY: ElementInfo[] = [
  { tag: 'span', nth_child: 1, text: 'Buy now' },
  { tag: 'button', id: 'buy', classes: ['btn', 'primary'], nth_child: 2, attributes: { type: 'submit', 'data-pp-name': 'x', role: 'button' } },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'section', nth_child: 3 },
];
export const LINK: ElementInfo[] = [
  { tag: 'span', nth_child: 1, text: 'Pricing' },
  { tag: 'a', classes: ['nav'], nth_child: 2, attributes: { href: '/pricing' } },
  { tag: 'li', nth_child: 4 },
];
// Greedy nearest ancestors fail here: `.card` nearest the target is under an `li`, the next one under `.nav`.
export const NESTED: ElementInfo[] = [
  { tag: 'span', classes: ['primary'], nth_child: 1 },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'li', nth_child: 2 },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'section', classes: ['nav'], nth_child: 1 },
];
// Two elements the selector `button` matches; only the outer one is named `b`.
export const TWO_BUTTONS: ElementInfo[] = [
  { tag: 'span', nth_child: 1 },
  { tag: 'button', nth_child: 1, attributes: { name: 'a' } },
  { tag: 'button', nth_child: 2, attributes: { name: 'b' } },
];
export const SHOP = 'https://shop.example.com/pricing';

export interface Example {
  name: string;
  rule: OracleRule;
  event?: string;
  url?: string | null;
  elements?: ElementInfo[] | null;
  expected: boolean;
}

export const EXAMPLES: Example[] = [
  { name: 'a span inside button#buy matches button#buy', rule: rule({ selector: 'button#buy' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'tags are not case sensitive', rule: rule({ selector: 'BUTTON#buy' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'ids are case sensitive', rule: rule({ selector: 'button#Buy' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'span#buy: no span has that id', rule: rule({ selector: 'span#buy' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'div > button: the button is a child of the div', rule: rule({ selector: 'div > button' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'div>button without spaces', rule: rule({ selector: 'div.card>button.btn' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'section > button: the section is no parent of it', rule: rule({ selector: 'section > button' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'section button: the section is an ancestor', rule: rule({ selector: 'section button' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'an ancestor above the captured chain never matches', rule: rule({ selector: 'body section' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'the nearest .card does not lead to a .nav parent, the next one does', rule: rule({ selector: '.nav > .card .primary' }), elements: NESTED, expected: true },
  { name: 'the same with a child combinator throughout fails', rule: rule({ selector: '.nav > .card > .primary' }), elements: NESTED, expected: false },
  { name: ':nth-child(2) matches the button (second child)', rule: rule({ selector: ':nth-child(2)' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'button:nth-child(1): the button is the second child', rule: rule({ selector: 'button:nth-child(1)' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'li:nth-child(4) > a', rule: rule({ selector: 'li:nth-child(4) > a' }), elements: LINK, expected: true },
  { name: '[data-pp-name="x"]', rule: rule({ selector: '[data-pp-name="x"]' }), elements: SPAN_IN_BUY, expected: true },
  { name: "[data-pp-name='x'] with single quotes", rule: rule({ selector: "[data-pp-name='x']" }), elements: SPAN_IN_BUY, expected: true },
  { name: '[DATA-PP-NAME=x]: attribute names are not case sensitive', rule: rule({ selector: '[DATA-PP-NAME=x]' }), elements: SPAN_IN_BUY, expected: true },
  { name: '[data-pp-name=X]: values are', rule: rule({ selector: '[data-pp-name=X]' }), elements: SPAN_IN_BUY, expected: false },
  { name: '[class="btn primary"] reads the classes joined', rule: rule({ selector: '[class="btn primary"]' }), elements: SPAN_IN_BUY, expected: true },
  { name: '[id=buy] reads the id', rule: rule({ selector: 'section [id=buy]' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'a[href="/pricing"]', rule: rule({ selector: 'a[href="/pricing"]' }), elements: LINK, expected: true },
  { name: 'eq on the matched element, not the target', rule: rule({ selector: 'a', attributes: [{ name: 'href', op: 'eq', value: '/pricing' }] }), elements: LINK, expected: true },
  { name: 'without a selector conditions apply to the target', rule: rule({ attributes: [{ name: 'href', op: 'eq', value: '/pricing' }] }), elements: LINK, expected: false },
  { name: 'contains is a case-sensitive substring', rule: rule({ selector: 'a.nav', attributes: [{ name: 'href', op: 'contains', value: 'pric' }] }), elements: LINK, expected: true },
  { name: 'contains with another case', rule: rule({ selector: 'a.nav', attributes: [{ name: 'href', op: 'contains', value: 'Pric' }] }), elements: LINK, expected: false },
  { name: 'exists on the matched element', rule: rule({ selector: '#buy', attributes: [{ name: 'role', op: 'exists' }] }), elements: SPAN_IN_BUY, expected: true },
  { name: 'exists on the target without a selector', rule: rule({ attributes: [{ name: 'role', op: 'exists' }] }), elements: SPAN_IN_BUY, expected: false },
  { name: 'class contains', rule: rule({ selector: 'button', attributes: [{ name: 'class', op: 'contains', value: 'n prim' }] }), elements: SPAN_IN_BUY, expected: true },
  {
    name: 'an element the selector matches and that holds the conditions',
    rule: rule({ selector: 'button', attributes: [{ name: 'name', op: 'eq', value: 'b' }] }),
    elements: TWO_BUTTONS,
    expected: true,
  },
  { name: "match_text ignores case and the pattern's spacing", rule: rule({ match_text: '  BUY   now ' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'match_text is no substring match', rule: rule({ match_text: 'buy' }), elements: SPAN_IN_BUY, expected: false },
  { name: 'a strict-mode event has no text and never matches match_text', rule: rule({ match_text: 'buy now' }), elements: [{ tag: 'button', id: 'buy', nth_child: 1 }], expected: false },
  { name: 'match_text with a selector', rule: rule({ selector: '#buy', match_text: 'Buy now' }), elements: SPAN_IN_BUY, expected: true },
  { name: 'url *: every page of the host', rule: rule({ url_pattern: 'https://shop.example.com/*' }), url: 'https://Shop.example.com:443/cart/?x=1', elements: SPAN_IN_BUY, expected: true },
  { name: 'url *: another host', rule: rule({ url_pattern: 'https://shop.example.com/*' }), url: 'https://www.example.org/cart', elements: SPAN_IN_BUY, expected: false },
  { name: '/blog/* on any host', rule: rule({ url_pattern: '/blog/*' }), url: 'https://www.example.org/blog/post_1/?utm=x#top', elements: LINK, expected: true },
  { name: '/blog/* is not /blogs', rule: rule({ url_pattern: '/blog/*' }), url: 'https://www.example.org/blogs', elements: LINK, expected: false },
  { name: '_ in a pattern is literal', rule: rule({ url_pattern: '/blog/post_1*' }), url: 'https://www.example.org/blog/post-12', elements: LINK, expected: false },
  { name: 'an exact URL in another spelling', rule: rule({ url_pattern: 'https://shop.example.com/pricing/' }), url: 'https://SHOP.example.com/pricing?step=2#top', elements: LINK, expected: true },
  { name: 'an exact path, trailing slash dropped', rule: rule({ url_pattern: '/pricing/' }), url: 'http://www.example.org:8080/pricing#top', elements: LINK, expected: true },
  { name: 'an exact path is not a prefix', rule: rule({ url_pattern: '/pricing' }), url: 'https://shop.example.com/pricing/plans', elements: LINK, expected: false },
  { name: 'a path with its hash route', rule: rule({ url_pattern: '/#/cart' }), url: 'https://shop.example.com/#/cart', elements: LINK, expected: true },
  { name: 'a path pattern without the hash route', rule: rule({ url_pattern: '/' }), url: 'https://shop.example.com/#/cart', elements: LINK, expected: false },
  { name: 'an event without a URL never matches a pattern', rule: rule({ url_pattern: '*' }), url: null, elements: LINK, expected: false },
  { name: 'another base event', rule: rule({ selector: 'button#buy' }), event: 'pp.rage_click', elements: SPAN_IN_BUY, expected: false },
  {
    name: 'a form submit by its form',
    rule: rule({ base_event: 'pp.form_submit', selector: 'form#signup' }),
    event: 'pp.form_submit',
    elements: [
      { tag: 'form', id: 'signup', nth_child: 1 },
      { tag: 'div', nth_child: 1 },
    ],
    expected: true,
  },
  { name: 'a page view by its URL', rule: rule({ base_event: 'pp.page_view', url_pattern: SHOP }), event: 'pp.page_view', url: 'https://shop.example.com/pricing/', elements: null, expected: true },
  { name: 'empty strings are not set', rule: rule({ selector: '', url_pattern: '', match_text: '' }), url: null, elements: [{ tag: 'div', nth_child: 1 }], expected: true },
];

export const NOW = new Date('2026-04-10T12:00:00Z');

export function exampleEvents(): Array<EventInput & { uuid: string }> {
  return EXAMPLES.map((x, i) => ({
    uuid: randomUUID(),
    event: x.event ?? x.rule.base_event,
    ts: new Date(NOW.getTime() - (i + 1) * 3_600_000),
    anonymous_id: 'a0',
    url: x.url === undefined ? SHOP : x.url,
    elements: x.elements === undefined ? null : x.elements,
  }));
}

// The hand-made rule and chain examples of the labeled-event matching tests, and what those tests
// share: the API body of a rule, events as seeded and as the reference reads them, the comparison of
// derived (rule, source) pairs with the reference's, and the rules API as the tests call it (on
// either engine: what reads the stored events is each test's own).

import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import type { QueryHarness } from '../queries/harness.js';
import { eventually } from '../support/eventually.js';
import { createIngestKey } from '../support/ingest.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { PREVIEW_WINDOW_MS, previewCount, ruleMatches, type ElementInfo, type OracleEvent, type OracleRule } from '../oracles/labeled.js';
import type { EventInput, Moment } from './arbitraries.js';

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

/** A rule as the API shows it. */
export interface RuleView {
  id: number;
  state: string;
  event_name: string;
  materialization: { state: string; derived_events: number; error: unknown } | null;
}

/** The labeled events API as one user calls it on a harness's server; `token()` is that user's token now. */
export function labeledApi(h: QueryHarness, token: () => string) {
  const base = (p: number) => `/api/v1/projects/${p}/labeled-events`;
  const api = {
    base,

    /** A project in `tz` whose events carry texts and attributes (standard privacy mode). */
    async standardProject(tz: string): Promise<number> {
      const p = h.project(tz);
      const res = await h.server.request('PATCH', `/api/v1/projects/${p}/behavior/settings`, { body: { privacy_mode: 'standard' }, token: h.token });
      if (res.status !== 200) throw new Error(`behavior settings: ${res.status} ${res.text}`);
      return p;
    },

    async createRule(p: number, rule: OracleRule, eventName: string): Promise<number> {
      const res = await h.server.request('POST', base(p), { body: ruleBody(rule, eventName), token: token() });
      if (res.status !== 201) throw new Error(`create ${JSON.stringify(ruleBody(rule, eventName))}: ${res.status} ${res.text}`);
      if (res.body.state !== 'active' || res.body.event_name !== eventName) throw new Error(`created rule: ${res.text}`);
      return Number(res.body.id);
    },

    /** Waits until the rule's latest job finished; a failed job fails the test with its error. */
    async settled(p: number, id: number, state: string): Promise<RuleView> {
      const res = await eventually(
        `rule ${id} ${state} with its job finished`,
        () => h.server.request<RuleView>('GET', `${base(p)}/${id}`, { token: token() }),
        (r) => r.status !== 200 || (r.body.state === state && ['succeeded', 'failed'].includes(r.body.materialization?.state ?? '')),
        60_000,
      );
      if (res.status !== 200) throw new Error(`GET rule ${id}: ${res.status} ${res.text}`);
      if (res.body.materialization!.state !== 'succeeded') throw new Error(`rule ${id}: job ${res.text}`);
      return res.body;
    },

    /** Creates a rule named `rule_<i>` for each of `inputs`: the rules with their ids, and each id's event name. */
    async createRules(p: number, inputs: OracleRule[]): Promise<{ rules: Array<{ id: number; rule: OracleRule }>; names: Map<number, string> }> {
      const ids = await Promise.all(inputs.map((r, i) => api.createRule(p, r, `rule_${i}`)));
      return { rules: ids.map((id, i) => ({ id, rule: inputs[i]! })), names: new Map(ids.map((id, i) => [id, `rule_${i}`])) };
    },

    /**
     * Waits for each rule's job, then checks it derived as many events as the reference matches in
     * `events`, and that its preview counts those of the 30 days before `now` the reference counts.
     */
    async rulesAsReference(p: number, rules: Array<{ id: number; rule: OracleRule }>, events: OracleEvent[], now: Date, context: string): Promise<void> {
      for (const r of rules) {
        const view = await api.settled(p, r.id, 'active');
        const want = events.filter((e) => ruleMatches(r.rule, e)).length;
        if (view.materialization!.derived_events !== want) throw new Error(`rule ${JSON.stringify(r.rule)}: derived_events ${view.materialization!.derived_events}, expected ${want} ${context}`);
      }
      for (const r of rules) {
        const res = await h.server.request('POST', `${base(p)}/preview`, { body: ruleBody(r.rule), token: token() });
        if (res.status !== 200) throw new Error(`preview ${JSON.stringify(r.rule)}: ${res.status} ${res.text}`);
        const want = previewCount(r.rule, events, now);
        if (res.body.count !== want) throw new Error(`preview ${JSON.stringify(r.rule)} ${context}: count ${res.body.count}, expected ${want}`);
        if (Date.parse(res.body.from) !== now.getTime() - PREVIEW_WINDOW_MS || Date.parse(res.body.to) !== now.getTime()) {
          throw new Error(`preview window ${res.body.from} – ${res.body.to}, expected the 30 × 24 hours before ${now.toISOString()}`);
        }
      }
    },

    /**
     * The start of a random case: a project in the moment's zone holding `seeded`, a rule of each of
     * `inputs` (checked with `rulesAsReference`), and what they derived checked against the reference
     * (`derivedPairs` reads the project's `ruleId|source uuid`).
     */
    async startCase(moment: Moment, seeded: EventInput[], inputs: OracleRule[], derivedPairs: DerivedPairs, tally: Tally): Promise<RandomCase> {
      const p = await api.standardProject(moment.tz);
      const stored = seeded.map((e) => ({ ...e, uuid: randomUUID() }));
      await seedEvents(h.server, p, stored.map(toSeed));
      const context = `in ${moment.tz} at ${moment.now.toISOString()}`;
      const { rules, names } = await api.createRules(p, inputs);
      const c: RandomCase = { p, rules, context, events: stored.map(toOracle), check: async () => {} };
      c.check = checkAgainstReference(
        () => derivedPairs(p, names),
        () => c.events,
        rules,
        context,
        tally,
      );
      await api.rulesAsReference(p, rules, c.events, moment.now, context);
      await c.check('derived over history', rules);
      return c;
    },

    /**
     * Events arriving after the case's rules exist are derived as they are stored: `ingested` is
     * tracked (`stored(uuids)` counts those of them stored) and the derived events checked again.
     */
    async arrive(c: RandomCase, ingested: EventInput[], stored: (uuids: string[]) => Promise<number>): Promise<void> {
      const arriving = ingested.map((e) => ({ ...e, uuid: randomUUID() }));
      await api.track(c.p, arriving, () => stored(arriving.map((e) => e.uuid)));
      c.events = [...c.events, ...arriving.map(toOracle)];
      await c.check('derived at ingest', c.rules);
    },

    /** Sends `events` through the tracker's endpoint and waits until `stored()` counts every one of them. */
    async track(p: number, events: Array<EventInput & { uuid: string }>, stored: () => Promise<number>): Promise<void> {
      const key = createIngestKey(h.server, { id: p }, { type: 'browser', domains: ['example.com', '*.example.com', '*.example.org'] });
      const res = await h.server.request('POST', '/v1/track', {
        token: key.value,
        headers: { origin: 'https://shop.example.com', 'x-pp-tracker': 'pp-browser/0.6.5' },
        body: { events: events.map((e) => ({ ...toSeed(e), ts: e.ts.toISOString() })) },
      });
      if (res.status !== 202 || res.body.accepted !== events.length) throw new Error(`track: ${res.status} ${res.text}`);
      await ingestWriter(h.server.running.services).loaded();
      await eventually('the tracked events loaded', stored, (n) => n === events.length);
    },

    /**
     * Disables the first of `rules` (its events torn down, `check`ed with the others), then enables
     * it again: the same events are derived, with the same uuids (`uuidsOf` a rule: `source>uuid`).
     */
    async disableAndEnable(p: number, rules: Array<{ id: number; rule: OracleRule }>, check: Check, uuidsOf: (ruleId: number) => Promise<string[]>, context: string): Promise<void> {
      const [first, ...others] = rules;
      const before = await uuidsOf(first!.id);
      const disabled = await h.server.request('POST', `${base(p)}/${first!.id}/disable`, { token: token() });
      if (disabled.status !== 204) throw new Error(`disable: ${disabled.status} ${disabled.text}`);
      const off = await api.settled(p, first!.id, 'disabled');
      if (off.materialization!.derived_events !== 0) throw new Error(`disabled rule: derived_events ${off.materialization!.derived_events}`);
      await check('after disabling the first rule', others);
      const enabled = await h.server.request('POST', `${base(p)}/${first!.id}/enable`, { token: token() });
      if (enabled.status !== 204) throw new Error(`enable: ${enabled.status} ${enabled.text}`);
      await api.settled(p, first!.id, 'active');
      await check('after enabling it again', rules);
      if (JSON.stringify(await uuidsOf(first!.id)) !== JSON.stringify(before)) throw new Error(`re-derived events have other uuids ${context}`);
    },

    /** The hand-made examples on the server: each rule labels exactly the example events the reference says (`derivedPairs` reads `ruleId|source uuid`). */
    async handMadeExamples(t: Test, derivedPairs: DerivedPairs): Promise<void> {
      const p = await api.standardProject('Europe/Berlin');
      const events = exampleEvents();
      await seedEvents(h.server, p, events.map(toSeed));
      const rules: Array<{ id: number; rule: OracleRule }> = [];
      for (const [i, x] of EXAMPLES.entries()) rules.push({ id: await api.createRule(p, x.rule, `example_${i}`), rule: x.rule });
      for (const r of rules) await api.settled(p, r.id, 'active');
      const names = new Map(rules.map((r, i) => [r.id, `example_${i}`]));
      const actual = await derivedPairs(p, names);
      EXAMPLES.forEach((x, i) => t.equal(actual.includes(`${rules[i]!.id}|${events[i]!.uuid}`), x.expected, x.name));
      const diff = pairDiff(actual, expectedPairs(rules, events.map(toOracle)), rules, events.map(toOracle));
      t.notOk(diff, diff ?? 'every rule labels exactly the example events the reference says');
    },
  };
  return api;
}

/** A project's derived events as `ruleId|source uuid`, given each rule's event name by id. */
export type DerivedPairs = (p: number, names: Map<number, string>) => Promise<string[]>;

/** A random case under way: its project, rules, the events the reference knows of, and its Check. */
export interface RandomCase {
  p: number;
  rules: Array<{ id: number; rule: OracleRule }>;
  context: string;
  events: OracleEvent[];
  check: Check;
}

/** Compares the derived events with the reference's for the rules active now (`label` names the moment). */
export type Check = (label: string, active: Array<{ id: number; rule: OracleRule }>) => Promise<void>;

/** How many (rule, event of its base event) pairs were compared, and how many of them derived. */
export interface Tally {
  compared: number;
  matched: number;
}

/**
 * A Check of the pairs `derived()` reads (`ruleId|source uuid`) against the reference over
 * `events()`; a difference names `rules` (the active ones first) and the events involved.
 */
function checkAgainstReference(derived: () => Promise<string[]>, events: () => OracleEvent[], rules: Array<{ id: number; rule: OracleRule }>, context: string, tally: Tally): Check {
  return async (label, active) => {
    const all = events();
    const expected = expectedPairs(active, all);
    const diff = pairDiff(await derived(), expected, [...active, ...rules], all);
    if (diff) throw new Error(`${label} ${context}:\n${diff}`);
    for (const r of active) tally.compared += all.filter((e) => e.event === r.rule.base_event).length;
    tally.matched += expected.length;
  };
}

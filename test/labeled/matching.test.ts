// Labeled-event matching against the real server: hand-made rule and chain examples, then random
// events and rules compared with test/oracles/labeled.ts — the preview count, the events derived
// over history by the rule's job, those derived at ingest, and teardown and re-derivation.

import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { queryHarness } from '../queries/harness.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { createIngestKey, readTable } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { accessTokenFor, addMember } from '../support/factories.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { PREVIEW_WINDOW_MS, previewCount, ruleMatches, type ElementInfo, type OracleEvent, type OracleRule } from '../oracles/labeled.js';
import { eventsArb, momentArb, ruleArb, type EventInput, type RuleInput } from './arbitraries.js';

// Every rule's job is polled every 100 ms by one analyst: on a loaded machine the jobs take long
// enough for that to pass the budgets of 600 requests a minute a user and 1,200 an address, which
// are not what is tested here.
const h = await queryHarness(t, { settings: { 'rate_limit.user_per_minute': 100_000, 'rate_limit.ip_per_minute': 100_000 } });
const analyst = await addMember(h.server, h.tenant.org, 'analyst', { password: null });
let token = await accessTokenFor(h.server, analyst, h.tenant.org);

/** Moves the clock and mints tokens valid at the new time. */
async function setNow(now: Date): Promise<void> {
  h.server.clock.set(now);
  await h.renewToken();
  token = await accessTokenFor(h.server, analyst, h.tenant.org);
}

const base = (p: number) => `/api/v1/projects/${p}/labeled-events`;

/** A project in `tz` whose events carry texts and attributes (standard privacy mode). */
async function standardProject(tz: string): Promise<number> {
  const p = h.project(tz);
  const res = await h.server.request('PATCH', `/api/v1/projects/${p}/behavior/settings`, { body: { privacy_mode: 'standard' }, token: h.token });
  if (res.status !== 200) throw new Error(`behavior settings: ${res.status} ${res.text}`);
  return p;
}

/** The API body of a rule; a page-view rule sends only what applies to it. */
function ruleBody(rule: OracleRule, eventName?: string): Record<string, unknown> {
  const body: Record<string, unknown> = { base_event: rule.base_event, url_pattern: rule.url_pattern };
  if (rule.base_event !== 'pp.page_view') Object.assign(body, { selector: rule.selector, match_text: rule.match_text, attributes: rule.attributes });
  if (eventName !== undefined) body.event_name = eventName;
  return body;
}

async function createRule(p: number, rule: OracleRule, eventName: string): Promise<number> {
  const res = await h.server.request('POST', base(p), { body: ruleBody(rule, eventName), token });
  if (res.status !== 201) throw new Error(`create ${JSON.stringify(ruleBody(rule, eventName))}: ${res.status} ${res.text}`);
  if (res.body.state !== 'active' || res.body.event_name !== eventName) throw new Error(`created rule: ${res.text}`);
  return Number(res.body.id);
}

interface RuleView {
  id: number;
  state: string;
  event_name: string;
  materialization: { state: string; derived_events: number; error: unknown } | null;
}

/** Waits until the rule's latest job finished; a failed job fails the test with its error. */
async function settled(p: number, id: number, state: string): Promise<RuleView> {
  const res = await eventually(
    `rule ${id} ${state} with its job finished`,
    () => h.server.request<RuleView>('GET', `${base(p)}/${id}`, { token }),
    (r) => r.status !== 200 || (r.body.state === state && ['succeeded', 'failed'].includes(r.body.materialization?.state ?? '')),
    60_000,
  );
  if (res.status !== 200) throw new Error(`GET rule ${id}: ${res.status} ${res.text}`);
  if (res.body.materialization!.state !== 'succeeded') throw new Error(`rule ${id}: job ${res.text}`);
  return res.body;
}

interface DerivedRow {
  rule_id: number;
  source_uuid: string;
  uuid: string;
  event: string;
  source: string;
  /** Time, identity, session and page are the source event's; no revenue, no element chain. */
  copied: boolean;
  bare: boolean;
}

async function derivedRows(p: number): Promise<DerivedRow[]> {
  const rows = await readTable(
    h.server,
    `SELECT d.rule_id, d.source_uuid::VARCHAR AS source_uuid, d.uuid::VARCHAR AS uuid, d.event, d.source,
            coalesce(d.ts = s.ts AND d.distinct_id = s.distinct_id AND d.anonymous_id IS NOT DISTINCT FROM s.anonymous_id
              AND d.session_id IS NOT DISTINCT FROM s.session_id AND d.url IS NOT DISTINCT FROM s.url, false) AS copied,
            d.elements IS NULL AND d.revenue IS NULL AS bare
       FROM events d LEFT JOIN events s ON s.project_id = d.project_id AND s.uuid = d.source_uuid AND s.rule_id IS NULL
      WHERE d.project_id = $1 AND d.rule_id IS NOT NULL
      ORDER BY d.rule_id, d.source_uuid`,
    [p],
  );
  return rows.map((r) => ({ ...r, rule_id: Number(r.rule_id) }) as DerivedRow);
}

/** `ruleId|source uuid` of every derived event, checking each one's own columns on the way. */
async function derivedPairs(p: number, names: Map<number, string>): Promise<string[]> {
  const rows = await derivedRows(p);
  for (const r of rows) {
    const where = `derived ${r.uuid} of rule ${r.rule_id} from ${r.source_uuid}`;
    if (r.event !== names.get(r.rule_id)) throw new Error(`${where}: event ${r.event}, expected ${names.get(r.rule_id)}`);
    if (r.source !== 'system') throw new Error(`${where}: source ${r.source}`);
    if (!r.copied) throw new Error(`${where}: time, identity or page differ from the source event's (or no source event)`);
    if (!r.bare) throw new Error(`${where}: carries elements or revenue`);
  }
  const pairs = rows.map((r) => `${r.rule_id}|${r.source_uuid}`);
  if (new Set(pairs).size !== pairs.length) throw new Error(`duplicate derived events: ${pairs.filter((x, i) => pairs.indexOf(x) !== i).join(', ')}`);
  if (new Set(rows.map((r) => r.uuid)).size !== rows.length) throw new Error('two derived events share a uuid');
  return pairs.sort();
}

function expectedPairs(rules: Array<{ id: number; rule: OracleRule }>, events: OracleEvent[]): string[] {
  return rules.flatMap(({ id, rule }) => events.filter((e) => ruleMatches(rule, e)).map((e) => `${id}|${e.uuid}`)).sort();
}

/** What differs between two sorted pair lists, with the events and rules involved. */
function pairDiff(actual: string[], expected: string[], rules: Array<{ id: number; rule: OracleRule }>, events: OracleEvent[]): string | undefined {
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

const toSeed = (e: EventInput & { uuid: string }): SeedEvent => ({
  event: e.event,
  uuid: e.uuid,
  ts: e.ts,
  anonymous_id: e.anonymous_id,
  session_id: `s-${e.anonymous_id}`,
  ...(e.url !== null ? { url: e.url } : {}),
  ...(e.elements !== null ? { elements: e.elements as unknown as Record<string, unknown>[] } : {}),
  props: { revenue: 5 },
});

const toOracle = (e: EventInput & { uuid: string }): OracleEvent => ({ uuid: e.uuid, event: e.event, ts: e.ts, url: e.url, elements: e.elements });

// --- hand-made examples ----------------------------------------------------------------------

const rule = (r: Partial<OracleRule>): OracleRule => ({ base_event: 'pp.click', selector: null, url_pattern: null, match_text: null, attributes: [], ...r });
const SPAN_IN_BUY: ElementInfo[] = [
  { tag: 'span', nth_child: 1, text: 'Buy now' },
  { tag: 'button', id: 'buy', classes: ['btn', 'primary'], nth_child: 2, attributes: { type: 'submit', 'data-pp-name': 'x', role: 'button' } },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'section', nth_child: 3 },
];
const LINK: ElementInfo[] = [
  { tag: 'span', nth_child: 1, text: 'Pricing' },
  { tag: 'a', classes: ['nav'], nth_child: 2, attributes: { href: '/pricing' } },
  { tag: 'li', nth_child: 4 },
];
// Greedy nearest ancestors fail here: `.card` nearest the target is under an `li`, the next one under `.nav`.
const NESTED: ElementInfo[] = [
  { tag: 'span', classes: ['primary'], nth_child: 1 },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'li', nth_child: 2 },
  { tag: 'div', classes: ['card'], nth_child: 1 },
  { tag: 'section', classes: ['nav'], nth_child: 1 },
];
// Two elements the selector `button` matches; only the outer one is named `b`.
const TWO_BUTTONS: ElementInfo[] = [
  { tag: 'span', nth_child: 1 },
  { tag: 'button', nth_child: 1, attributes: { name: 'a' } },
  { tag: 'button', nth_child: 2, attributes: { name: 'b' } },
];
const SHOP = 'https://shop.example.com/pricing';

interface Example {
  name: string;
  rule: OracleRule;
  event?: string;
  url?: string | null;
  elements?: ElementInfo[] | null;
  expected: boolean;
}

const EXAMPLES: Example[] = [
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

const NOW = new Date('2026-04-10T12:00:00Z');

function exampleEvents(): Array<EventInput & { uuid: string }> {
  return EXAMPLES.map((x, i) => ({
    uuid: randomUUID(),
    event: x.event ?? x.rule.base_event,
    ts: new Date(NOW.getTime() - (i + 1) * 3_600_000),
    anonymous_id: 'a0',
    url: x.url === undefined ? SHOP : x.url,
    elements: x.elements === undefined ? null : x.elements,
  }));
}

t.test('the reference matcher on the hand-made examples', async (t) => {
  const events = exampleEvents();
  EXAMPLES.forEach((x, i) => t.equal(ruleMatches(x.rule, toOracle(events[i]!)), x.expected, x.name));
  t.equal(previewCount(rule({}), [{ uuid: 'a', event: 'pp.click', ts: new Date(NOW.getTime() - PREVIEW_WINDOW_MS), url: null, elements: null }], NOW), 0, 'the window start is excluded');
  t.equal(previewCount(rule({}), [{ uuid: 'a', event: 'pp.click', ts: NOW, url: null, elements: null }], NOW), 1, 'now is included');
});

t.test('the server on the hand-made examples', async (t) => {
  await setNow(NOW);
  const p = await standardProject('Europe/Berlin');
  const events = exampleEvents();
  await seedEvents(h.server, p, events.map(toSeed));
  const rules: Array<{ id: number; rule: OracleRule }> = [];
  for (const [i, x] of EXAMPLES.entries()) rules.push({ id: await createRule(p, x.rule, `example_${i}`), rule: x.rule });
  for (const r of rules) await settled(p, r.id, 'active');
  const names = new Map(rules.map((r, i) => [r.id, `example_${i}`]));
  const actual = await derivedPairs(p, names);
  EXAMPLES.forEach((x, i) => t.equal(actual.includes(`${rules[i]!.id}|${events[i]!.uuid}`), x.expected, x.name));
  const diff = pairDiff(actual, expectedPairs(rules, events.map(toOracle)), rules, events.map(toOracle));
  t.notOk(diff, diff ?? 'every rule labels exactly the example events the reference says');
});

t.test('a tab in match_text is whitespace the pattern collapses', async (t) => {
  await setNow(NOW);
  const p = await standardProject('UTC');
  const event = { uuid: randomUUID(), event: 'pp.click', ts: new Date(NOW.getTime() - 3_600_000), anonymous_id: 'a0', url: SHOP, elements: [{ tag: 'button', nth_child: 1, text: 'Sign up' }] };
  await seedEvents(h.server, p, [toSeed(event)]);
  const tabbed = rule({ match_text: ' sign\tup' });
  t.ok(ruleMatches(tabbed, toOracle(event)), 'the reference collapses the tab');
  const res = await h.server.request('POST', base(p), { body: ruleBody(tabbed, 'tabbed'), token });
  t.equal(res.status, 201, res.text);
  if (res.status !== 201) return;
  await settled(p, Number(res.body.id), 'active');
  t.strictSame(await derivedPairs(p, new Map([[Number(res.body.id), 'tabbed']])), [`${res.body.id}|${event.uuid}`]);
});

// --- random events and rules -----------------------------------------------------------------

const caseArb = momentArb.chain((moment) =>
  fc.record({
    moment: fc.constant(moment),
    seeded: eventsArb(moment, 40, 120),
    ingested: eventsArb(moment, 4, 10),
    rules: fc.array(ruleArb, { minLength: 1, maxLength: 4 }),
  }),
);

t.test('random rules agree with the reference', async (t) => {
  let compared = 0;
  let matched = 0;
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ moment, seeded, ingested, rules: inputs }) => {
      await setNow(moment.now);
      const p = await standardProject(moment.tz);
      const events = seeded.map((e) => ({ ...e, uuid: randomUUID() }));
      await seedEvents(h.server, p, events.map(toSeed));
      let all = events.map(toOracle);
      const context = `in ${moment.tz} at ${moment.now.toISOString()}`;

      const rules: Array<{ id: number; rule: OracleRule }> = [];
      const ids = await Promise.all(inputs.map((r: RuleInput, i) => createRule(p, r, `rule_${i}`)));
      ids.forEach((id, i) => rules.push({ id, rule: inputs[i]! }));
      const names = new Map(ids.map((id, i) => [id, `rule_${i}`]));
      for (const r of rules) {
        const view = await settled(p, r.id, 'active');
        const want = all.filter((e) => ruleMatches(r.rule, e)).length;
        if (view.materialization!.derived_events !== want) throw new Error(`rule ${JSON.stringify(r.rule)}: derived_events ${view.materialization!.derived_events}, expected ${want} ${context}`);
      }

      for (const r of rules) {
        const res = await h.server.request('POST', `${base(p)}/preview`, { body: ruleBody(r.rule), token });
        if (res.status !== 200) throw new Error(`preview ${JSON.stringify(r.rule)}: ${res.status} ${res.text}`);
        const want = previewCount(r.rule, all, moment.now);
        if (res.body.count !== want) throw new Error(`preview ${JSON.stringify(r.rule)} ${context}: count ${res.body.count}, expected ${want}`);
        if (Date.parse(res.body.from) !== moment.now.getTime() - PREVIEW_WINDOW_MS || Date.parse(res.body.to) !== moment.now.getTime()) {
          throw new Error(`preview window ${res.body.from} – ${res.body.to}, expected the 30 × 24 hours before ${moment.now.toISOString()}`);
        }
      }

      const check = async (label: string, active: Array<{ id: number; rule: OracleRule }>) => {
        const expected = expectedPairs(active, all);
        const diff = pairDiff(await derivedPairs(p, names), expected, rules, all);
        if (diff) throw new Error(`${label} ${context}:\n${diff}`);
        for (const r of active) compared += all.filter((e) => e.event === r.rule.base_event).length;
        matched += expected.length;
      };
      await check('derived over history', rules);

      // Events that arrive after the rules exist are derived as they are stored.
      const key = createIngestKey(h.server, { id: p }, { type: 'browser', domains: ['example.com', '*.example.com', '*.example.org'] });
      const arriving = ingested.map((e) => ({ ...e, uuid: randomUUID() }));
      const res = await h.server.request('POST', '/v1/track', {
        token: key.value,
        headers: { origin: 'https://shop.example.com', 'x-pp-tracker': 'pp-browser/0.6.5' },
        body: { events: arriving.map((e) => ({ ...toSeed(e), ts: e.ts.toISOString() })) },
      });
      if (res.status !== 202 || res.body.accepted !== arriving.length) throw new Error(`track: ${res.status} ${res.text}`);
      await ingestWriter(h.server.running.services).loaded();
      const uuids = arriving.map((e) => e.uuid);
      await eventually(
        'the tracked events loaded',
        () => readTable(h.server, `SELECT count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NULL AND uuid::VARCHAR IN (${uuids.map((_, i) => `$${i + 2}`).join(', ')})`, [p, ...uuids]),
        (rows) => rows[0]!.n === uuids.length,
      );
      all = [...all, ...arriving.map(toOracle)];
      await check('derived at ingest', rules);

      // Disabling tears the first rule's events down; enabling derives the same events again.
      const [first, ...others] = rules;
      const before = (await derivedRows(p))
        .filter((r) => r.rule_id === first!.id)
        .map((r) => `${r.source_uuid}>${r.uuid}`)
        .sort();
      const disabled = await h.server.request('POST', `${base(p)}/${first!.id}/disable`, { token });
      if (disabled.status !== 204) throw new Error(`disable: ${disabled.status} ${disabled.text}`);
      const off = await settled(p, first!.id, 'disabled');
      if (off.materialization!.derived_events !== 0) throw new Error(`disabled rule: derived_events ${off.materialization!.derived_events}`);
      await check('after disabling the first rule', others);
      const enabled = await h.server.request('POST', `${base(p)}/${first!.id}/enable`, { token });
      if (enabled.status !== 204) throw new Error(`enable: ${enabled.status} ${enabled.text}`);
      await settled(p, first!.id, 'active');
      await check('after enabling it again', rules);
      const after = (await derivedRows(p))
        .filter((r) => r.rule_id === first!.id)
        .map((r) => `${r.source_uuid}>${r.uuid}`)
        .sort();
      if (JSON.stringify(after) !== JSON.stringify(before)) throw new Error(`re-derived events have other uuids ${context}`);
    }),
    { numRuns: 40, seed: 20260410 },
  );
  t.ok(matched > compared / 10 && matched < compared / 2, `${matched} derived of ${compared} (rule, event of its base event) pairs compared`);
});

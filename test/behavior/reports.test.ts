// Page behavior and forms reports: hand-made events with every figure checked, the report
// parameters' refusals, roles, paging, then random events (DST windows, identity links, ties)
// compared with test/oracles/behavior.ts.

import t from 'tap';
import { queryHarness } from '../queries/harness.js';
import { RUNS } from '../queries/scenarios.js';
import { randomReports } from './randomReports.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { normalizePageUrl } from '../../server/behavior/pageUrl.js';
import { cssEscape, selectorOfChain } from '../../server/behavior/elementSelector.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';

const h = await queryHarness(t);

let asked = 0;
async function get(projectId: number, path: string, params: Record<string, unknown> = {}, token = h.token) {
  // Reports read the per-day page rollup and the raw events past it: every third call finds it
  // fully folded, every third partly (five more events), the others as it was left.
  asked += 1;
  if (asked % 3 === 1) await actorDayFolder(h.server.running.services).catchUp();
  if (asked % 3 === 2) await actorDayFolder(h.server.running.services).catchUp({ maxRows: 5 });
  const qs = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return h.server.request('GET', `/api/v1/projects/${projectId}/${path}${qs.size > 0 ? `?${qs}` : ''}`, { token });
}

const at = (time: string, day = '02') => `2026-04-${day}T${time}:00Z`;
const RANGE = { date_from: '2026-04-01', date_to: '2026-04-03' };
const BUY = [
  { tag: 'button', id: 'buy', nth_child: 2, text: 'Buy now' },
  { tag: 'div', classes: ['hero'], nth_child: 1 },
];
const LINK = [
  { tag: 'a', classes: ['nav', 'top'], nth_child: 3, text: 'Docs' },
  { tag: 'nav', nth_child: 1 },
];
const HOME = 'https://shop.example.com/';
const CART = 'https://Shop.example.com/cart/?step=2#top';

function handMade(): SeedEvent[] {
  const ev = (event: string, time: string, anon: string, url: string, props: Record<string, unknown> = {}, elements?: Record<string, unknown>[]): SeedEvent => ({
    event,
    ts: at(time),
    anonymous_id: anon,
    session_id: `s-${anon}`,
    url,
    props,
    ...(elements ? { elements } : {}),
  });
  return [
    ev('pp.page_view', '10:00', 'a', CART),
    ev('pp.page_view', '10:05', 'b', 'https://shop.example.com/cart'),
    ev('pp.page_view', '10:06', 'b', HOME),
    // Three clicks on Buy (two people, desktop and mobile), one on a fixed nav link, one without viewport.
    ev('pp.click', '10:01', 'a', CART, { x: 700, y: 260, vw: 1280, vh: 800, ox: 55, oy: 20 }, BUY),
    ev('pp.click', '10:02', 'a', CART, { x: 702, y: 262, vw: 1280, vh: 800, ox: 57, oy: 25 }, BUY),
    ev('pp.click', '10:07', 'b', CART, { x: 200, y: 90, vw: 390, vh: 800, ox: 5, oy: 99 }, BUY),
    ev('pp.click', '10:08', 'b', CART, { x: 100, y: 3000, vw: 1280, vh: 800, ox: 50, oy: 50, fixed: true }, LINK),
    ev('pp.click', '10:09', 'b', CART, { x: 10, y: 10 }, LINK),
    ev('pp.rage_click', '10:02', 'a', CART, { x: 702, y: 262, clicks: 3 }, BUY),
    ev('pp.dead_click', '10:09', 'b', CART, { x: 10, y: 10 }, LINK),
    ev('pp.scroll_depth', '10:04', 'a', CART, { percent: 80 }),
    ev('pp.scroll_depth', '10:06', 'b', CART, { percent: 30 }),
    ev('signup', '10:10', 'b', CART),
    // Forms: a starts and submits twice (one visit), b starts and abandons at the email field.
    ev('pp.form_start', '10:01', 'a', CART, { form: 'form#checkout', field: 'input[name="email"]', since_load_ms: 4000 }),
    ev('pp.form_submit', '10:03', 'a', CART, {
      form: 'form#checkout',
      duration_ms: 60000,
      since_load_ms: 4000,
      last_field: 'input[name="zip"]',
      blank_fields: ['input[name="note"]'],
      fields: [
        { field: 'input[name="email"]', tag: 'input', type: 'email', time_ms: 5000, focus_count: 2, changed: true, to_change_ms: 800, corrections: 1 },
        { field: 'input[name="zip"]', tag: 'input', type: 'text', time_ms: 2000, focus_count: 1, changed: true, to_change_ms: 300, corrections: 0 },
      ],
    }),
    ev('pp.form_submit', '10:04', 'a', CART, { form: 'form#checkout', duration_ms: 80000, fields: [], blank_fields: [] }),
    ev('pp.form_start', '10:07', 'b', CART, { form: 'form#checkout', field: 'input[name="email"]', since_load_ms: 10000 }),
    ev('pp.form_abandon', '10:09', 'b', CART, {
      form: 'form#checkout',
      duration_ms: 120000,
      since_load_ms: 10000,
      last_field: 'input[name="email"]',
      fields: [{ field: 'input[name="email"]', tag: 'input', type: 'email', time_ms: 9000, focus_count: 1, changed: true, to_change_ms: 2000, corrections: 4 }],
    }),
    // Outside the range: not counted.
    { event: 'pp.click', ts: '2026-04-05T10:00:00Z', anonymous_id: 'c', url: CART, props: { x: 1, y: 1, vw: 1280 }, elements: BUY },
  ];
}

t.test('page behavior over hand-made events', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, handMade());
  await h.server.request('PATCH', `/api/v1/projects/${p}/behavior/settings`, { body: { privacy_mode: 'standard' }, token: h.token });

  const urls = await get(p, 'pages/behavior/urls', RANGE);
  t.equal(urls.status, 200, urls.text);
  t.strictSame(
    urls.body.items.map((i: { url: string; events: number }) => [i.url, i.events]),
    [
      ['https://shop.example.com/cart', 17],
      [HOME, 1],
    ],
    'by event count; query, fragment and trailing slash dropped, host lowercased',
  );
  const cart = urls.body.items[0];
  t.match(cart, { page_views: 2, clicks: 5, unique_clickers: 2, rage_clicks: 1, dead_clicks: 1, rage_click_rate: 0.2, dead_click_rate: 0.2 });
  // Depths 80 and 30: both reach 25, one reaches 50 and 75, none 100.
  t.strictSame(cart.scroll, { measured: 2, reach_25: 1, reach_50: 0.5, reach_75: 0.5, reach_100: 0, mean_depth: 55 });

  const page = await get(p, 'pages/behavior', { ...RANGE, url: 'https://SHOP.example.com:443/cart?x=1' });
  t.equal(page.status, 200, page.text);
  t.equal(page.body.url, 'https://shop.example.com/cart');
  t.strictSame(page.body.summary, (({ url: _u, ...rest }) => rest)(cart), 'the same figures as the list');
  const bands = Object.fromEntries(page.body.heatmap.bands.map((b: { band: string }) => [b.band, b]));
  // 700/1280 = 54.7 % → column 54; 702/1280 = 54.8 % → 54; rows 250 (260, 262).
  t.strictSame(bands.desktop.cells, [{ x: 54, y: 250, clicks: 2 }]);
  t.match(bands.desktop, { clicks: 3, fixed_clicks: 1, min_width: 1024, max_width: 1439, truncated: false });
  // 200/390 = 51.3 % → 50; row 75.
  t.strictSame(bands.mobile.cells, [{ x: 50, y: 75, clicks: 1 }]);
  t.equal(page.body.heatmap.unplaced, 1, 'the click without a viewport width');
  t.strictSame(page.body.items, [
    // Buy: a clicked twice and b once, two people; the nav link: b alone, twice.
    {
      selector: 'button#buy',
      tag: 'button',
      text: 'Buy now',
      clicks: 3,
      unique_clickers: 2,
      rage_clicks: 1,
      dead_clicks: 0,
      cells: [
        { x: 50, y: 20, clicks: 2 },
        { x: 0, y: 90, clicks: 1 },
      ],
    },
    { selector: 'body > nav:nth-child(1) > a.nav.top:nth-child(3)', tag: 'a', text: 'Docs', clicks: 2, unique_clickers: 1, rage_clicks: 0, dead_clicks: 1, cells: [{ x: 50, y: 50, clicks: 1 }] },
  ]);
  t.equal(page.body.next_cursor, null);

  await h.server.request('PATCH', `/api/v1/projects/${p}/behavior/settings`, { body: { privacy_mode: 'strict' }, token: h.token });
  const strict = await get(p, 'pages/behavior', { ...RANGE, url: CART });
  t.strictSame(
    strict.body.items.map((i: { text: unknown }) => i.text),
    [null, null],
    'no text in strict mode',
  );

  const filtered = await get(p, 'pages/behavior/urls', { ...RANGE, filters: [{ field: 'props.percent', op: 'gte', value: 50 }] });
  t.strictSame(
    filtered.body.items.map((i: { url: string; events: number }) => [i.url, i.events]),
    [['https://shop.example.com/cart', 1]],
  );

  const first = await get(p, 'pages/behavior', { ...RANGE, url: CART, limit: 1 });
  t.equal(first.body.items[0].selector, 'button#buy');
  const second = await get(p, 'pages/behavior', { ...RANGE, url: CART, limit: 1, cursor: first.body.next_cursor });
  t.equal(second.body.items[0].selector, 'body > nav:nth-child(1) > a.nav.top:nth-child(3)');
  t.equal(second.body.next_cursor, null);
  const elsewhere = await get(p, 'pages/behavior', { ...RANGE, url: HOME, limit: 1, cursor: first.body.next_cursor });
  t.equal(elsewhere.status, 422, 'a cursor of another page');
});

t.test("an element's clickers are actors, as the page's are", async (t) => {
  const p = h.project('UTC');
  const click = (anon: string, time: string, props = {}): SeedEvent => ({ event: 'pp.click', ts: at(time), anonymous_id: anon, url: CART, props, elements: BUY });
  await seedEvents(h.server, p, [
    click('x', '10:00'),
    click('u', '10:01'),
    click('y', '10:02', { plan: 'gold' }),
    // Only rage and dead clicks on the link: nobody clicked it.
    { event: 'pp.rage_click', ts: at('10:03'), anonymous_id: 'x', url: CART, props: {}, elements: LINK },
    // Outside the range: not a clicker.
    { event: 'pp.click', ts: '2026-04-05T10:00:00Z', anonymous_id: 'z', url: CART, props: {}, elements: BUY },
  ]);
  // x is the same person as u.
  await seedIdentity(h.server, p, 'x', 'u');
  const page = await get(p, 'pages/behavior', { ...RANGE, url: CART });
  t.equal(page.status, 200, page.text);
  t.equal(page.body.summary.unique_clickers, 2, 'u (also x) and y');
  t.strictSame(
    page.body.items.map((i: { selector: string; clicks: number; unique_clickers: number }) => [i.selector, i.clicks, i.unique_clickers]),
    [
      ['button#buy', 3, 2],
      ['body > nav:nth-child(1) > a.nav.top:nth-child(3)', 0, 0],
    ],
  );
  const filtered = await get(p, 'pages/behavior', { ...RANGE, url: CART, filters: [{ field: 'props.plan', op: 'eq', value: 'gold' }] });
  t.equal(filtered.status, 200, filtered.text);
  t.equal(filtered.body.items[0].unique_clickers, 1, 'filters narrow the clickers too');
});

t.test("an element's clickers from the rollup: folded, compacted, partly folded, identified between clicks", async (t) => {
  const p = h.project('UTC');
  const folder = actorDayFolder(h.server.running.services);
  // Another chain with the selector of BUY (an id wins), and the page under another stored URL.
  const BUY_AGAIN = [
    { tag: 'button', id: 'buy', nth_child: 4, text: 'Buy' },
    { tag: 'section', nth_child: 2 },
  ];
  const CART_AGAIN = 'https://shop.example.com/cart';
  const click = (anon: string, day: string, time: string, elements: Record<string, unknown>[], url = CART, event = 'pp.click', props = {}): SeedEvent => ({
    event,
    ts: at(time, day),
    anonymous_id: anon,
    url,
    props,
    elements,
  });
  const elements = async (filters?: unknown) => {
    const qs = new URLSearchParams({ ...RANGE, url: CART, ...(filters ? { filters: JSON.stringify(filters) } : {}) });
    const res = await h.server.request('GET', `/api/v1/projects/${p}/pages/behavior?${qs}`, { token: h.token, headers: { 'cache-control': 'no-cache' } });
    t.equal(res.status, 200, res.text);
    return {
      clickers: res.body.summary.unique_clickers as number,
      items: res.body.items.map((i: { selector: string; clicks: number; unique_clickers: number }) => [i.selector, i.clicks, i.unique_clickers]),
    };
  };
  const folded = async () => Number((await h.server.running.services.events.read('SELECT count(*) AS n FROM click_elements WHERE project_id = $1', [p]))[0]!.n);

  // Day 1: a clicks BUY under both chains and both URLs, v clicks it, b only rage-clicks it, c clicks the link.
  await seedEvents(h.server, p, [
    click('a', '01', '10:00', BUY),
    click('a', '01', '10:01', BUY_AGAIN, CART_AGAIN),
    click('v', '01', '10:02', BUY),
    click('b', '01', '10:03', BUY, CART, 'pp.rage_click'),
    click('c', '01', '10:04', LINK),
  ]);
  await folder.catchUp();
  await folder.compact();
  t.ok((await folded()) > 0, 'day 1 folded');
  t.strictSame(await elements(), {
    clickers: 3,
    items: [
      ['button#buy', 3, 2],
      ['body > nav:nth-child(1) > a.nav.top:nth-child(3)', 1, 1],
    ],
  });

  // Day 2: a again (another day), b now clicks through the other chain; folded only in part.
  await seedEvents(h.server, p, [click('a', '02', '10:00', BUY), click('b', '02', '10:01', BUY_AGAIN, CART_AGAIN), click('a', '02', '10:02', BUY_AGAIN)]);
  await folder.catchUp({ maxRows: 1 });
  const partly = await elements();
  t.strictSame(partly.items[0], ['button#buy', 6, 3], 'a, v and b');

  // v signs in as w, who clicks on day 3: one person with v. d clicks with a property; e clicks
  // where a did on day 2, a row of the same key folded in another pass (merged by compaction).
  await seedIdentity(h.server, p, 'v', 'w');
  await seedEvents(h.server, p, [click('w', '03', '10:00', BUY_AGAIN), click('d', '03', '10:01', BUY, CART, 'pp.click', { plan: 'gold' }), click('e', '02', '11:00', BUY)]);
  const expected = {
    clickers: 6,
    items: [
      ['button#buy', 9, 5],
      ['body > nav:nth-child(1) > a.nav.top:nth-child(3)', 1, 1],
    ],
  };
  t.strictSame(await elements(), expected, 'a, v (w), b, d, e; partly folded');
  await folder.catchUp();
  t.strictSame(await elements(), expected, 'folded');
  await folder.compact();
  t.strictSame(await elements(), expected, 'compacted');
  const gold = await elements([{ field: 'props.plan', op: 'eq', value: 'gold' }]);
  t.strictSame(gold.items, [['button#buy', 1, 1]], 'a filter reads the raw events');
  const notGold = await elements([{ field: 'props.plan', op: 'not_exists' }]);
  t.strictSame(notGold.items[0], ['button#buy', 8, 4], 'a, v (w), b, e');
});

t.test('forms over hand-made events', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, handMade());
  const forms = await get(p, 'forms', RANGE);
  t.equal(forms.status, 200, forms.text);
  t.strictSame(forms.body.items, [
    {
      form: 'form#checkout',
      url: 'https://shop.example.com/cart',
      views: 2, // a's and b's visits with a page view of the cart
      starts: 2,
      starters: 2,
      submits: 1, // a submitted twice in one visit
      submitters: 1,
      resubmissions: 1,
      abandons: 1,
      start_rate: 1,
      conversion_rate: 0.5,
      abandonment_rate: 0.5,
      median_time_to_submit_ms: 70000,
    },
  ]);

  const detail = await get(p, 'forms/detail', { ...RANGE, form: 'form#checkout' });
  t.equal(detail.status, 200, detail.text);
  t.match(detail.body, { form: 'form#checkout', url: null, attempts: 3, submitted: 2, abandoned: 1, median_hesitation_ms: 7000 });
  t.strictSame(detail.body.items, [
    {
      field: 'input[name="email"]',
      tag: 'input',
      type: 'email',
      drop_offs: 1,
      drop_off_rate: 1,
      interactions: 2,
      median_time_ms: 7000,
      median_to_change_ms: 1400,
      refocuses: 1,
      corrections: 5,
      left_blank: 0,
    },
    {
      field: 'input[name="zip"]',
      tag: 'input',
      type: 'text',
      drop_offs: 0,
      drop_off_rate: 0,
      interactions: 1,
      median_time_ms: 2000,
      median_to_change_ms: 300,
      refocuses: 0,
      corrections: 0,
      left_blank: 0,
    },
    {
      field: 'input[name="note"]',
      tag: null,
      type: null,
      drop_offs: 0,
      drop_off_rate: 0,
      interactions: 0,
      median_time_ms: null,
      median_to_change_ms: null,
      refocuses: 0,
      corrections: 0,
      left_blank: 1,
    },
  ]);
  const onPage = await get(p, 'forms/detail', { ...RANGE, form: 'form#checkout', url: HOME });
  t.match(onPage.body, { url: HOME, attempts: 0, items: [] });
});

t.test('report parameters', async (t) => {
  const p = h.project('UTC');
  const refused = async (params: Record<string, unknown>, field: string, path = 'pages/behavior/urls') => {
    const res = await get(p, path, params);
    t.equal(res.status, 422, `${JSON.stringify(params)}: ${res.text}`);
    t.equal(res.body.error?.details?.field, field, JSON.stringify(params));
  };
  await refused({ date_from: '2026-04-01' }, 'date_to');
  await refused({ date_from: '2026-04-03', date_to: '2026-04-01' }, 'date_from');
  await refused({ date_from: '2025-01-01', date_to: '2026-04-01' }, 'date_to');
  await refused({ filters: '{"field":"url"}' }, 'filters');
  await refused({ filters: 'not json' }, 'filters');
  await refused({ filters: ['segment:1'] }, 'filters[0]');
  await refused({ filters: Array.from({ length: 21 }, () => ({ field: 'url', op: 'exists' })) }, 'filters');
  await refused({ filters: [{ field: 'props.x', op: 'eq', value: 'y'.repeat(8200) }] }, 'filters');
  await refused({ filters: [{ field: 'nope', op: 'eq', value: 1 }] }, 'filters[0].field');
  await refused({ cursor: 'c1.abc.def' }, 'cursor');
  await refused({}, 'form', 'forms/detail');
  const res = await get(p, 'pages/behavior');
  t.equal(res.status, 422, 'url is required');
  t.equal((await get(p, 'forms', { limit: 501 })).status, 422);

  // Neither date: the latest 30 local dates, today included.
  h.server.clock.set(new Date('2026-04-10T12:00:00Z'));
  await h.renewToken();
  const latest = await get(p, 'forms');
  t.match(latest.body, { date_from: '2026-03-12', date_to: '2026-04-10', items: [], next_cursor: null });
});

t.test('roles and projects', async (t) => {
  const p = h.project('UTC');
  t.equal((await h.server.request('GET', `/api/v1/projects/${p}/forms`)).status, 401);
  const viewer = await accessTokenFor(h.server, await addMember(h.server, h.tenant.org, 'viewer'), h.tenant.org);
  for (const path of ['pages/behavior/urls', 'forms']) t.equal((await get(p, path, {}, viewer)).status, 200, `${path} for a viewer`);
  const other = await createTenant(h.server);
  const outsider = await accessTokenFor(h.server, other.owner, other.org);
  t.equal((await get(p, 'forms', {}, outsider)).status, 404);
  t.equal((await get(p, 'pages/behavior', { url: HOME }, outsider)).status, 404);
});

t.test('normalized URLs and selectors', async (t) => {
  const cases: Array<[string, string | null]> = [
    ['https://Shop.example.com:443/cart/?step=2#top', 'https://shop.example.com/cart'],
    ['http://a.example:80', 'http://a.example/'],
    ['http://a.example:8080/x//', 'http://a.example:8080/x'],
    ['https://a.example/#/items?id=1', 'https://a.example/#/items?id=1'],
    ['https://a.example/app/#!b', 'https://a.example/app#!b'],
    ['/relative/path/?q', '/relative/path'],
    ['', null],
  ];
  for (const [url, page] of cases) t.equal(normalizePageUrl(url), page, url);
  t.equal(cssEscape('1a b'), '\\31 a\\ b');
  t.equal(cssEscape('-'), '\\-');
  t.equal(selectorOfChain([{ tag: 'input', nth_child: 2, attributes: { name: 'e"mail' } }]), 'input[name="e\\"mail"]');
  t.equal(
    selectorOfChain([
      { tag: 'span', nth_child: 1 },
      { tag: 'div', id: '9x', nth_child: 1 },
    ]),
    'div#\\39 x > span:nth-child(1)',
  );
  const deep = Array.from({ length: 8 }, (_, i) => ({ tag: 'div', classes: ['a', 'b', 'c', 'd'], nth_child: i + 1 }));
  t.equal(selectorOfChain(deep).split(' > ').length, 6, 'six steps at most');
  // A chain that runs out (it stops below <body>) within six steps ends the walk with a body step,
  // which is one of the six; an id, a named field or six steps end it without one.
  t.equal(selectorOfChain(LINK), 'body > nav:nth-child(1) > a.nav.top:nth-child(3)');
  t.equal(selectorOfChain(deep.slice(0, 5)), 'body > div.a.b.c:nth-child(5) > div.a.b.c:nth-child(4) > div.a.b.c:nth-child(3) > div.a.b.c:nth-child(2) > div.a.b.c:nth-child(1)');
  t.equal(selectorOfChain(deep.slice(0, 6)), 'div.a.b.c:nth-child(6) > div.a.b.c:nth-child(5) > div.a.b.c:nth-child(4) > div.a.b.c:nth-child(3) > div.a.b.c:nth-child(2) > div.a.b.c:nth-child(1)');
  t.equal(
    selectorOfChain([
      { tag: 'span', nth_child: 1 },
      { tag: 'main', id: 'app', nth_child: 1 },
    ]),
    'main#app > span:nth-child(1)',
  );
});

t.test('random events agree with the reference reports', (t) => randomReports(t, h, get, RUNS));

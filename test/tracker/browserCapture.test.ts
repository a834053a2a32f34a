// What the tracker captures in a real browser, read back from the event store: SPA page
// views, where clicks land, rage and dead clicks, scroll depth, form abandonment and
// submission (timings, corrections, blank fields) without any typed value, strict mode
// without text, autocapture gated by the public configuration, a beacon on page
// hide, identify merging the anonymous actor, and replay chunks when recordings are on; and
// the behavior and forms reports over what arrived.
import t, { type Test } from 'tap';
import type { BehaviorSettingsPatch } from '../../server/ingest/behaviorSettings.js';
import { readReplayChunks } from '../../server/ingest/replay.js';
import { TRACKER_NAME, TRACKER_VERSION } from '../../sdk/browser/version.js';
import { launchChromium } from '../support/chromium.js';
import { startStaticServer, type StaticServer } from '../sdk/support/staticServer.js';
import { createTrackedSite, elements, named, props, type TrackedSite } from '../sdk/support/trackedSite.js';
import { eventually } from '../support/eventually.js';
import type { Manifest } from '../sdk/support/trackerBuild.js';
import { openTrackedPage, pageHtml, trackerTag, type TrackedPage } from '../sdk/support/trackerPage.js';
import { readTable } from '../support/ingest.js';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor } from '../support/factories.js';

const TEST_TIMEOUT_MS = 30_000;
const VERSIONED = `/v1/sdk/browser/${TRACKER_VERSION}`;
// Typed into fields; must never leave the page.
const SECRET = 'Zebra-Quartz-4711';
const TYPED = 'Quokka';

const server = await startTestServer(t, { now: new Date() });
// With the back/forward cache on, as in a user's browser, for the restore page view.
const browser = await launchChromium({ bfcache: true });
t.teardown(() => browser.close());
const manifest = (await server.request<Manifest>('GET', `${VERSIONED}/manifest.json`)).body;

interface LoggedRequest {
  status: number;
  headers: Record<string, string | undefined>;
}

// POSTs to `path` in the server's request log, from line `from` on.
function requestsLogged(from: number, path: string): LoggedRequest[] {
  return server.logs
    .slice(from)
    .filter((l) => l.msg === 'request')
    .map((l) => l as unknown as { req: { method: string; url: string; headers: Record<string, string> }; res: { status: number } })
    .filter((l) => l.req.method === 'POST' && l.req.url === path)
    .map((l) => ({ status: l.res.status, headers: l.req.headers }));
}

interface Visit {
  site: TrackedSite;
  tab: TrackedPage;
  url: string;
  pages: StaticServer;
}

// A project with these behavior settings and a page of the site carrying the documented
// snippet (versioned path on the pp server, with integrity), opened in a fresh context.
async function visit(t: Test, settings: BehaviorSettingsPatch | undefined, page: { title?: string; body?: string }): Promise<Visit> {
  // An origin per test: what a closing page sends late cannot be taken for this test's.
  const pages = await startStaticServer();
  t.teardown(() => pages.close());
  const site = await createTrackedSite(server, settings);
  const head = trackerTag({ src: `${server.url}${VERSIONED}/tracker.js`, integrity: manifest.assets.core.integrity, key: site.key.value, host: server.url, debug: true });
  const url = pages.put('/site/page.html', pageHtml({ ...page, head }));
  const tab = await openTrackedPage(browser, url);
  t.teardown(() => tab.close());
  // Debug mode logs the configuration as it is applied; autocapture starts in the same task,
  // so from then on the page is ready for interaction.
  await tab.consoleLine('[pp] configuration');
  return { site, tab, url, pages };
}

t.test('SPA navigation yields page views; a plain anchor does not', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  // `step` allowed, so the page the query alone changed is stored as the tracker sent it.
  const { site, tab, url } = await visit(t, { url_query_allowlist: ['step'] }, { body: '<p id="top">Top</p>' });
  const origin = new URL(url).origin;
  // hashchange and popstate arrive as tasks of their own: each step waits for its event.
  const hash = (h: string): string => `new Promise((resolve) => { addEventListener('hashchange', resolve, { once: true }); location.hash = '${h}'; })`;
  await tab.page.evaluate(hash('#top'));
  await tab.page.evaluate(`history.pushState({}, '', '/app/cart')`);
  await tab.page.evaluate(`history.replaceState({}, '', '/app/cart?step=2')`);
  await tab.page.evaluate(`new Promise((resolve) => { addEventListener('popstate', resolve, { once: true }); history.back(); })`);
  await tab.page.evaluate(hash('#/settings'));

  const events = await site.waitForEvents('five page views', (es) => named(es, 'pp.page_view').length >= 5);
  const views = named(events, 'pp.page_view').map((e) => ({ navigation: props(e).navigation, url: e.url, referrer: e.referrer }));
  const want = [
    { navigation: 'load', url, referrer: null },
    { navigation: 'spa', url: `${origin}/app/cart`, referrer: `${url}#top` },
    { navigation: 'spa', url: `${origin}/app/cart?step=2`, referrer: `${origin}/app/cart` },
    { navigation: 'spa', url: `${url}#top`, referrer: `${origin}/app/cart?step=2` },
    { navigation: 'spa', url: `${url}#/settings`, referrer: `${url}#top` },
  ];
  const byUrl = (a: { url: string }, b: { url: string }): number => a.url.localeCompare(b.url);
  t.same(views.sort(byUrl), want.sort(byUrl));
  t.equal(new Set(named(events, 'pp.page_view').map((e) => e.session_id)).size, 1, 'one session');
  t.same(props(named(events, 'pp.page_view')[0]), { navigation: 'load' }, 'strict by default: no title');
});

t.test('a restore from the back/forward cache is a page view', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const { site, tab, url, pages } = await visit(t, undefined, {});
  await site.waitForEvents('the load page view', (es) => named(es, 'pp.page_view').length === 1);
  await tab.page.goto(pages.url('/site/elsewhere.html'));
  await tab.page.goBack({ waitUntil: 'commit' });
  t.equal(await tab.page.evaluate(`performance.getEntriesByType('navigation')[0].type`), 'navigate', 'the document was restored, not reloaded');

  const events = await site.waitForEvents('the restore page view', (es) => named(es, 'pp.page_view').length === 2);
  t.same(
    named(events, 'pp.page_view')
      .map((e) => [props(e).navigation, e.url])
      .sort(),
    [
      ['bfcache', url],
      ['load', url],
    ],
  );
});

// Asserts an integer percent within ±2 of the expected one.
function near(t: Test, got: unknown, want: number, what: string): void {
  t.ok(Number.isInteger(got) && Math.abs((got as number) - want) <= 2, `${what}: ${got} ≈ ${want}`);
}

// A behavior report of the site's project over the latest 30 days, as its owner asks for it.
async function report(site: TrackedSite, path: string, query: Record<string, string>): Promise<Record<string, any>> {
  const token = await accessTokenFor(server, site.tenant.owner, site.tenant.org);
  const res = await server.request<Record<string, any>>('GET', `/api/v1/projects/${site.tenant.project.id}/${path}?${new URLSearchParams(query)}`, { token });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text}`);
  return res.body;
}

t.test('a rage click and a dead click are detected, each click placed in the viewport and its element', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<header style="position: fixed; top: 0; left: 0; right: 0"><div><button id="menu" type="button" onclick="this.dataset.open = 1">Menu</button></div></header>
<button id="again" style="margin-top: 60px; width: 200px; height: 40px" onclick="this.dataset.n = (+this.dataset.n || 0) + 1">Try again</button>
<p id="plain" style="margin-top: 80px">Nothing happens here</p>`;
  const { site, tab, url } = await visit(t, { autocapture_clicks: true, privacy_mode: 'standard' }, { body });
  const box = (await tab.page.locator('#again').boundingBox())!;
  t.same([box.width, box.height], [200, 40]);
  // 50, 60 and 70 px from the left edge (25, 30, 35 %), 10 px from the top (25 %).
  for (let i = 0; i < 3; i++) await tab.page.mouse.click(box.x + 50 + i * 10, box.y + 10);
  // The menu opens (an attribute changes), so its click is not dead.
  await tab.page.click('#menu');
  await tab.page.click('#plain');

  // The dead click is judged 2.5 s after it; then it waits for the next batch.
  const events = await site.waitForEvents('the rage and the dead click', (es) => named(es, 'pp.rage_click').length >= 1 && named(es, 'pp.dead_click').length >= 1);
  const clicks = named(events, 'pp.click');
  t.equal(clicks.length, 5);
  const [vw, vh] = (await tab.page.evaluate(`[innerWidth, innerHeight]`)) as [number, number];
  for (const c of clicks) t.match(props(c), { vw, vh }, `${elements(c)[0]?.id}: the viewport's size`);

  const again = clicks
    .filter((c) => elements(c)[0]?.id === 'again')
    .map(props)
    .sort((a, b) => a.ox - b.ox);
  t.equal(again.length, 3);
  again.forEach((p, i) => {
    near(t, p.ox, 25 + i * 5, `click ${i + 1} ox`);
    near(t, p.oy, 25, `click ${i + 1} oy`);
    t.notOk('fixed' in p, `click ${i + 1}: not in a fixed element`);
  });
  const menu = props(clicks.find((c) => elements(c)[0]?.id === 'menu'));
  t.equal(menu.fixed, true, 'a button inside a fixed header');
  near(t, menu.ox, 50, 'menu ox (clicked at the centre)');
  near(t, menu.oy, 50, 'menu oy');

  const rage = named(events, 'pp.rage_click');
  t.equal(rage.length, 1, 'once per burst');
  const r = props(rage[0]);
  t.match(r, { clicks: 3, vw, vh });
  near(t, r.ox, 35, 'rage ox of the last click');
  near(t, r.oy, 25, 'rage oy');
  t.notOk('fixed' in r || 'interactive' in r, 'rage: no fixed, no interactive');
  t.match(elements(rage[0])[0], { tag: 'button', id: 'again', text: 'Try again' });
  const dead = named(events, 'pp.dead_click');
  t.equal(dead.length, 1, 'only the click that changed nothing');
  t.match(elements(dead[0])[0], { tag: 'p', id: 'plain' });
  const d = props(dead[0]);
  t.match(d, { interactive: false, vw, vh });
  near(t, d.ox, 50, 'dead click ox (clicked at the centre)');
  near(t, d.oy, 50, 'dead click oy');
  t.notOk('fixed' in d);
  t.equal(await tab.page.evaluate(`document.querySelector('#again').dataset.n`), '3', 'the page saw the clicks too');

  // The page's report counts what the tracker sent.
  const page = await report(site, 'pages/behavior', { url });
  t.match(page.summary, { page_views: 1, clicks: 5, unique_clickers: 1, rage_clicks: 1, dead_clicks: 1, rage_click_rate: 0.2, dead_click_rate: 0.2 });
  const band = page.heatmap.bands.find((b: { clicks: number }) => b.clicks > 0);
  t.match(band, { clicks: 5, fixed_clicks: 1 }, 'the menu click is not placed on the page');
  t.equal(
    band.cells.reduce((n: number, c: { clicks: number }) => n + c.clicks, 0),
    4,
    'the other four are',
  );
  t.match(page.items, [
    { selector: 'button#again', tag: 'button', text: 'Try again', clicks: 3, rage_clicks: 1, dead_clicks: 0 },
    { selector: 'p#plain', tag: 'p', clicks: 1, dead_clicks: 1 },
    { selector: 'button#menu', tag: 'button', text: 'Menu', clicks: 1, rage_clicks: 0, dead_clicks: 0 },
  ]);
  const cells = page.items[0].cells as Array<{ x: number; y: number; clicks: number }>;
  t.equal(
    cells.reduce((n, c) => n + c.clicks, 0),
    3,
    'every click on the button in a cell of it',
  );
  t.ok(
    cells.every((c) => c.y === 20 && (c.x === 20 || c.x === 30)),
    'from 25 % to 35 % across, 25 % down',
  );
});

t.test('scroll depth and a form abandonment arrive without the typed value', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<div style="height: 3000px">Long article</div>
<form id="signup"><input name="email" type="email"><textarea name="note"></textarea><input name="city"><button>Send</button></form>
<div style="height: 1000px"></div>`;
  const { site, tab, url } = await visit(t, { autocapture_scroll: true, autocapture_forms: true, privacy_mode: 'standard' }, { body });
  // The first page view of the document starts at its navigation start.
  const beforeFocus = Number(await tab.page.evaluate(`performance.now()`));
  await tab.page.fill('input[name=email]', SECRET);
  await tab.page.fill('textarea[name=note]', `${SECRET} again`);
  // Two deletions are two corrections.
  await tab.page.keyboard.type(TYPED);
  await tab.page.keyboard.press('Backspace');
  await tab.page.keyboard.press('Backspace');
  // Abandoned here, focused and left untouched.
  await tab.page.focus('input[name=city]');
  await tab.page.evaluate(`scrollTo(0, document.documentElement.scrollHeight)`);
  // Depth is sampled in an animation frame after the scroll event.
  await tab.page.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
  await tab.page.evaluate(`history.pushState({}, '', '/site/thanks')`);

  const events = await site.waitForEvents('scroll depth and form abandonment', (es) => named(es, 'pp.scroll_depth').length >= 1 && named(es, 'pp.form_abandon').length >= 1);
  const depth = named(events, 'pp.scroll_depth')[0]!;
  t.equal(depth.url, url, 'reported for the page view that ended');
  const d = props(depth);
  const height = Number(await tab.page.evaluate(`document.documentElement.scrollHeight`));
  t.same(d, { percent: 100, pixels: height, page_height: height }, 'scrolled to the bottom');
  t.equal(named(events, 'pp.form_start').length, 1);
  const start = props(named(events, 'pp.form_start')[0]);
  t.ok(start.since_load_ms >= Math.floor(beforeFocus), `first focus ${start.since_load_ms} ms after the navigation start (≥ ${beforeFocus})`);
  const abandon = named(events, 'pp.form_abandon')[0]!;
  t.equal(abandon.url, url);
  const a = props(abandon);
  t.equal(a.form, 'form#signup');
  t.equal(a.since_load_ms, start.since_load_ms, 'since_load_ms of the first focus');
  t.same(a.focus_order, ['input[name="email"]', 'textarea[name="note"]', 'input[name="city"]']);
  t.equal(a.last_field, 'input[name="city"]');
  t.same(
    a.fields.map((f: Record<string, unknown>) => Object.keys(f).sort()),
    [
      ['changed', 'corrections', 'field', 'focus_count', 'tag', 'time_ms', 'to_change_ms', 'type'],
      ['changed', 'corrections', 'field', 'focus_count', 'tag', 'time_ms', 'to_change_ms', 'type'],
      ['changed', 'corrections', 'field', 'focus_count', 'tag', 'time_ms', 'type'],
    ],
    'to_change_ms only for the fields that changed',
  );
  t.match(a.fields, [
    { field: 'input[name="email"]', tag: 'input', type: 'email', focus_count: 1, changed: true, corrections: 0, to_change_ms: Number },
    { field: 'textarea[name="note"]', tag: 'textarea', focus_count: 1, changed: true, corrections: 2, to_change_ms: Number },
    { field: 'input[name="city"]', tag: 'input', type: 'text', focus_count: 1, changed: false, corrections: 0 },
  ]);
  for (const f of a.fields.slice(0, 2)) t.ok(f.to_change_ms >= 0 && f.to_change_ms <= f.time_ms, `${f.field}: changed within its focus time`);
  t.notOk('blank_fields' in a, 'blank fields only at a submit');
  t.equal(named(events, 'pp.form_submit').length, 0);

  // The reports count what the tracker sent: one start, abandoned at the city field.
  const forms = await report(site, 'forms', {});
  t.match(forms.items, [{ form: 'form#signup', url, views: 1, starts: 1, starters: 1, submits: 0, abandons: 1, conversion_rate: 0, abandonment_rate: 1 }]);
  const detail = await report(site, 'forms/detail', { form: 'form#signup', url });
  t.match(detail, { attempts: 1, submitted: 0, abandoned: 1, median_hesitation_ms: start.since_load_ms });
  t.match(detail.items, [
    { field: 'input[name="city"]', drop_offs: 1, drop_off_rate: 1, interactions: 1, corrections: 0 },
    { field: 'input[name="email"]', drop_offs: 0, interactions: 1, corrections: 0 },
    { field: 'textarea[name="note"]', drop_offs: 0, interactions: 1, corrections: 2 },
  ]);
  const scrolled = await report(site, 'pages/behavior', { url });
  t.match(scrolled.summary.scroll, { measured: 1, reach_25: 1, reach_50: 1, reach_75: 1, reach_100: 1, mean_depth: 100 });
  t.notOk(/Zebra|4711|Quok/.test(JSON.stringify([forms, detail, scrolled])), 'no typed value in any report');

  const stored = await site.everythingStored();
  t.notOk(/Zebra|4711|Quokka|Quok/.test(stored), 'the typed values are nowhere in the store');
  const sent = await tab.sent(server.url);
  t.notOk(
    sent.some((r) => /Zebra|Quok/.test(r.body + r.url)),
    'nor in any request the page made',
  );
});

t.test('a submitted form names its blank fields and never its values', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<form id="order">
<input name="name"><input name="email" type="email"><textarea name="note"></textarea>
<input name="terms" type="checkbox"><input name="news" type="checkbox" checked>
<input name="size" type="radio" value="s"><input name="size" type="radio" value="m">
<input name="speed" type="radio" value="slow"><input name="speed" type="radio" value="fast" checked>
<select name="country"><option value="">Choose</option><option value="fr">France</option></select>
<select name="color"><option value="red">Red</option></select>
<input name="token" type="hidden"><input name="pw" type="password"><input name="card_number">
<div data-pp-no-capture><input name="private"></div>
<input type="submit" value="Order"><button id="go">Order</button></form>`;
  const { site, tab } = await visit(t, { autocapture_forms: true, privacy_mode: 'standard' }, { body });
  await tab.page.evaluate(`document.querySelector('#order').addEventListener('submit', (e) => e.preventDefault())`);
  // The page view that the form belongs to starts at this SPA navigation, long after the load.
  await tab.page.waitForFunction(`performance.now() > 2000`);
  const navigatedAt = Number(await tab.page.evaluate(`history.pushState({}, '', '/site/checkout'); performance.now()`));
  await tab.page.fill('input[name=name]', SECRET);
  // Typed, then wholly deleted: empty again at the submit.
  await tab.page.click('textarea[name=note]');
  await tab.page.keyboard.type(TYPED);
  await tab.page.keyboard.press('ControlOrMeta+A');
  await tab.page.keyboard.press('Delete');
  await tab.page.click('#go');
  const submittedAt = Number(await tab.page.evaluate(`performance.now()`));

  const events = await site.waitForEvents('the form submit', (es) => named(es, 'pp.form_submit').length === 1);
  const start = props(named(events, 'pp.form_start')[0]);
  t.ok(start.since_load_ms >= 0 && start.since_load_ms <= submittedAt - navigatedAt + 1, `first focus ${start.since_load_ms} ms into the SPA page view`);
  const s = props(named(events, 'pp.form_submit')[0]);
  t.equal(s.since_load_ms, start.since_load_ms);
  t.same(
    s.blank_fields,
    ['input[name="email"]', 'textarea[name="note"]', 'input[name="terms"]', 'input[name="size"]', 'select[name="country"]'],
    'the untouched and emptied fields, nothing hidden, sensitive or excluded',
  );
  t.match(s.fields, [
    { field: 'input[name="name"]', changed: true, corrections: 0, to_change_ms: Number },
    { field: 'textarea[name="note"]', changed: true, corrections: 1, to_change_ms: Number },
  ]);

  const stored = await site.everythingStored();
  t.notOk(/Zebra|4711|Quokka/.test(stored), 'no typed value is stored');
  t.notOk(/"(fr|red|slow|fast|on)"/.test(stored), 'nor any value of a choice');
});

t.test('strict mode sends no text', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<section data-pp-section="Pricing Lemons" style="height: 600px"><h1>Quiet Lemons</h1>
<a id="buy" href="/buy?coupon=Lemon" aria-label="Buy Lemons" class="cta big">Buy Lemons Now</a></section>
<form id="f"><input name="lemon_name" id="who"><button id="send" type="submit">Send Lemons</button></form>`;
  const settings: BehaviorSettingsPatch = {
    privacy_mode: 'strict',
    autocapture_clicks: true,
    autocapture_forms: true,
    autocapture_sections: true,
    autocapture_hover_intent: true,
    autocapture_scroll: true,
  };
  const { site, tab } = await visit(t, settings, { title: 'Secret Lemons Title', body });
  await tab.page.evaluate(`document.querySelector('#buy').addEventListener('click', (e) => e.preventDefault())`);
  await tab.page.hover('#buy');
  await tab.page.waitForTimeout(600);
  await tab.page.click('#buy');
  await tab.page.fill('#who', SECRET);
  await tab.page.evaluate(`document.querySelector('#f').addEventListener('submit', (e) => e.preventDefault())`);
  await tab.page.click('#send');
  await tab.page.evaluate(`pp.track('marker')`);

  const kinds = ['pp.click', 'pp.hover_intent', 'pp.section_view', 'pp.form_start', 'pp.form_submit', 'marker'];
  const events = await site.waitForEvents(kinds.join(', '), (es) => kinds.every((k) => named(es, k).length >= 1));
  t.same(props(named(events, 'pp.page_view')[0]), { navigation: 'load' }, 'no title');
  for (const e of events) {
    for (const el of elements(e)) {
      t.same(
        Object.keys(el).filter((k) => !['tag', 'id', 'classes', 'nth_child'].includes(k)),
        [],
        `${e.event}: only tag, id, classes, nth_child`,
      );
    }
  }
  t.match(elements(named(events, 'pp.click')[0])[0], { tag: 'a', id: 'buy', classes: ['cta', 'big'] });
  t.notOk(String(props(named(events, 'pp.section_view')[0]).section).includes('Pricing'), 'sections named by selector, not label');
  t.match(props(named(events, 'pp.section_view')[0]).section, /^body > section:nth-child\(\d+\)$/, 'a walk that reaches <body> ends with a body step');
  t.same(
    props(named(events, 'pp.form_submit')[0]).fields.map((f: Record<string, unknown>) => f.field),
    ['input#who'],
    'fields by id',
  );
  t.same(props(named(events, 'pp.form_submit')[0]).blank_fields, [], 'the one field was filled');
  const stored = await site.everythingStored();
  t.notOk(/Lemon|Zebra/.test(stored), 'no text of the page, no value, no title, no label is stored');
});

t.test('the public configuration gates autocapture: clicks off, no pp.click', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<form id="f"><input id="who"><button id="b" type="button">Press</button></form>`;
  const { site, tab } = await visit(t, { autocapture_clicks: false, autocapture_forms: true }, { body });
  const config = await server.request('GET', `/v1/config/${site.key.prefix}`);
  t.same(config.body, { privacy_mode: 'strict', collect: ['forms'] });
  for (let i = 0; i < 3; i++) await tab.page.click('#b');
  await tab.page.click('#who');
  await tab.page.evaluate(`pp.track('marker')`);

  const events = await site.waitForEvents('the form start and the marker', (es) => named(es, 'marker').length === 1);
  t.equal(named(events, 'pp.form_start').length, 1, 'an enabled kind is captured');
  for (const name of ['pp.click', 'pp.rage_click', 'pp.dead_click']) t.same(named(events, name), [], `no ${name}`);
  t.same(
    (await tab.sent(`${server.url}${VERSIONED}/`)).map((r) => r.url),
    [`${server.url}${VERSIONED}/tracker.js`],
    'no module downloaded',
  );
});

t.test('a beacon on page hide delivers what was waiting', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const firstLog = server.logs.length;
  const { site, tab, url, pages } = await visit(t, { autocapture_scroll: true }, { body: '<div style="height: 2000px"></div>' });
  await site.waitForEvents('the load page view', (es) => named(es, 'pp.page_view').length === 1);
  // Batches wait a second; leaving at once leaves the event to the page-hide path.
  await tab.page.evaluate(`pp.track('left_in_a_hurry', { step: 3 }); location.href = '/site/elsewhere.html'`);
  await tab.page.waitForURL('**/elsewhere.html');

  const events = await site.waitForEvents('the event sent at page hide', (es) => named(es, 'left_in_a_hurry').length === 1 && named(es, 'pp.scroll_depth').length === 1);
  const left = named(events, 'left_in_a_hurry')[0]!;
  t.equal(left.url, url);
  t.same(props(left), { step: 3 });
  t.equal(left.sdk_name, TRACKER_NAME, 'the client comes from the body');
  t.equal(left.sdk_version, TRACKER_VERSION);
  // The page is gone, so the browser's request list has it no more: the server's request log
  // shows how it came (sendBeacon cannot set headers; fetch always sends JSON and X-PP-Tracker).
  // A request is logged when its answer has gone, just after its events became readable.
  const isBeacon = (r: LoggedRequest): boolean => String(r.headers['content-type']).startsWith('text/plain');
  const fromPage = await eventually(
    'the request log lines',
    async () => requestsLogged(firstLog, '/v1/track').filter((r) => r.headers.origin === pages.origin),
    (rs) => rs.some(isBeacon) && rs.some((r) => !isBeacon(r)),
  );
  const beacons = fromPage.filter(isBeacon);
  t.equal(beacons.length, 1, 'one text/plain request at page hide');
  t.equal(beacons[0]?.headers['x-pp-tracker'], undefined, 'without the header a beacon cannot carry');
  t.equal(beacons[0]?.status, 202);
  t.ok(
    fromPage.some((r) => r.headers['x-pp-tracker'] === `${TRACKER_NAME}/${TRACKER_VERSION}`),
    'the load page view went by fetch',
  );
});

t.test('identify merges the anonymous actor: earlier events resolve to the user', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const { site, tab } = await visit(t, undefined, {});
  // The server answers identify once the link and the traits are stored.
  const answered = tab.page.waitForResponse((r) => r.url() === `${server.url}/v1/identify` && r.request().method() === 'POST');
  await tab.page.evaluate(`pp.track('browsed'); pp.identify('user-77', { plan: 'pro' }); pp.track('bought')`);
  const identify = await answered;
  t.equal(identify.status(), 202);
  t.same(await identify.json(), { accepted: 1, rejected: [] });
  t.equal(await identify.request().headerValue('authorization'), `Bearer ${site.key.value}`);

  const events = await site.waitForEvents('the events around identify', (es) => named(es, 'bought').length === 1);
  const anonymous = named(events, 'browsed')[0]!.anonymous_id as string;
  t.equal(named(events, 'browsed')[0]!.user_id, null);
  t.match(named(events, 'bought')[0], { user_id: 'user-77', anonymous_id: anonymous, distinct_id: 'user-77' });
  const actors = await readTable(
    server,
    `SELECT e.event, COALESCE(l.actor_id, e.distinct_id) AS actor FROM events e
       LEFT JOIN identity_links l ON l.project_id = e.project_id AND l.distinct_id = e.distinct_id
      WHERE e.project_id = $1 ORDER BY e.event`,
    [site.tenant.project.id],
  );
  t.same(
    actors,
    ['bought', 'browsed', 'pp.page_view'].map((event) => ({ event, actor: 'user-77' })),
    'the page view and the event before identify are the user’s',
  );
  const [traits] = await readTable(server, `SELECT traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1 AND user_id = 'user-77'`, [site.tenant.project.id]);
  t.same(JSON.parse(traits!.traits), { plan: 'pro' });
});

t.test('replay chunks arrive when recordings are enabled, inputs masked', { timeout: TEST_TIMEOUT_MS }, async (t) => {
  const body = `<h1>Recorded page</h1><form><input id="nickname" name="holder"></form>`;
  const { site, tab } = await visit(t, { replay_enabled: true, replay_sample_rate: 1, privacy_mode: 'standard' }, { body });
  t.equal(await tab.scriptOutcome(`${server.url}${VERSIONED}/replay.js`), 'load', 'replay.js from the versioned path');
  await tab.page.fill('#nickname', SECRET);
  // Leaving the page sends the pending chunk at once instead of after five seconds.
  await tab.page.evaluate(`location.href = '/site/elsewhere.html'`);
  await tab.page.waitForURL('**/elsewhere.html');

  const [view] = await site.waitForEvents('the page view', (es) => named(es, 'pp.page_view').length === 1);
  const sessionId = view!.session_id as string;
  const chunks = await eventually(
    'a replay chunk',
    () => readReplayChunks(server.running.services, site.tenant.project.id, sessionId),
    (cs) => cs.length >= 1,
  );
  t.equal(chunks[0]!.seq, 0);
  const recorded = chunks.flatMap((c) => c.events) as Array<{ type: number }>;
  t.ok(
    recorded.some((e) => e.type === 4),
    'a meta event',
  );
  t.ok(
    recorded.some((e) => e.type === 2),
    'a full snapshot',
  );
  const text = JSON.stringify(recorded);
  t.ok(text.includes('Recorded page'), 'standard mode records the page text');
  t.notOk(text.includes('Zebra'), 'the typed value is masked');
});

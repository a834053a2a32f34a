// The behavior pages in chromium against the real server, on hand-made clicks, scroll depths and
// form events: every figure, row, heatmap cell and field drawn must be the API's answer to the
// same question (asked by the test with the page's parameters); "Load more" pages through the
// lists (deleting form data, from the project settings, is formData.test.ts).

import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, daysBefore, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';
import { eventually } from '../support/eventually.js';
import { grantEntitlements } from '../support/license.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
// Element texts are reported in standard privacy mode only.
await server.request('PATCH', `/api/v1/projects/${project.id}/behavior/settings`, { token, body: { privacy_mode: 'standard' } });

const today = UTC_TODAY;
const from = daysBefore(6);
const day = daysBefore(2);
const RANGE = { date_from: from, date_to: today };
const base = `/projects/${project.id}`;

const PRICING = 'https://shop.example/pricing';
const SIGNUP = 'https://shop.example/signup';
const BUY = [{ tag: 'button', id: 'buy', nth_child: 1, text: 'Buy' }];
const DOCS = [
  { tag: 'a', classes: ['nav'], nth_child: 2, text: 'Docs' },
  { tag: 'nav', nth_child: 1 },
];
/** More pages and forms than a page of a list (50) holds, and more clicked elements. */
const EXTRA = 55;

const at = (minute: number) => `${day}T10:${String(minute % 60).padStart(2, '0')}:00Z`;
const ev = (event: string, minute: number, who: string, url: string, props: Record<string, unknown> = {}, elements?: Record<string, unknown>[]): SeedEvent => ({
  event,
  ts: at(minute),
  anonymous_id: who,
  session_id: `s-${who}`,
  url,
  props,
  ...(elements ? { elements } : {}),
});

const field = (name: string, time_ms: number, extra: Record<string, unknown> = {}) => ({
  field: `input[name="${name}"]`,
  tag: 'input',
  type: name === 'email' ? 'email' : 'text',
  time_ms,
  focus_count: 1,
  changed: true,
  corrections: 0,
  to_change_ms: 400,
  ...extra,
});

await seedEvents(server, project.id, [
  // The pricing page: four views (one with a query string, the same page), clicks in three bands,
  // one on a fixed element, one from an old tracker, a rage and a dead click, three scroll depths.
  ...['a', 'b', 'c', 'd'].map((who, i) => ev('pp.page_view', i, who, i === 0 ? `${PRICING}?ref=mail` : PRICING)),
  ev('pp.click', 1, 'a', PRICING, { x: 700, y: 260, vw: 1280, vh: 800, ox: 55, oy: 20 }, BUY),
  ev('pp.click', 2, 'a', PRICING, { x: 702, y: 262, vw: 1280, vh: 800, ox: 57, oy: 25 }, BUY),
  ev('pp.click', 3, 'b', PRICING, { x: 640, y: 1210, vw: 1280, vh: 800, ox: 10, oy: 90 }, BUY),
  ev('pp.click', 4, 'b', PRICING, { x: 300, y: 40, vw: 800, vh: 1000, ox: 50, oy: 50 }, DOCS),
  ev('pp.click', 5, 'c', PRICING, { x: 200, y: 90, vw: 390, vh: 800, ox: 5, oy: 99 }, BUY),
  ev('pp.click', 6, 'c', PRICING, { x: 100, y: 3000, vw: 1280, vh: 800, ox: 50, oy: 50, fixed: true }, DOCS),
  ev('pp.click', 7, 'd', PRICING, { x: 10, y: 10 }, DOCS),
  ev('pp.rage_click', 2, 'a', PRICING, { x: 702, y: 262, clicks: 3 }, BUY),
  ev('pp.dead_click', 7, 'd', PRICING, { x: 10, y: 10 }, DOCS),
  ev('pp.scroll_depth', 8, 'a', PRICING, { percent: 30 }),
  ev('pp.scroll_depth', 8, 'b', PRICING, { percent: 80 }),
  ev('pp.scroll_depth', 8, 'c', PRICING, { percent: 100 }),
  // Elements clicked once each in desktop windows, down the page: the elements table pages.
  ...Array.from({ length: EXTRA }, (_, i) =>
    ev('pp.click', 10 + i, `e${i}`, PRICING, { x: 20 * i, y: 400 + 60 * i, vw: 1280, vh: 800, ox: 50, oy: 50 }, [{ tag: 'li', id: `item-${i}`, nth_child: i + 1, text: `Item ${i}` }]),
  ),
  // Pages with one view each: the pages list pages.
  ...Array.from({ length: EXTRA }, (_, i) => ev('pp.page_view', i, `v${i}`, `https://shop.example/p/${String(i).padStart(2, '0')}`)),
  // The signup form: four visits start it, two submit (one twice), two leave it at a field.
  ...['f1', 'f2', 'f3', 'f4'].map((who, i) => ev('pp.page_view', 20 + i, who, SIGNUP)),
  ...['f1', 'f2', 'f3', 'f4'].map((who, i) => ev('pp.form_start', 21 + i, who, SIGNUP, { form: 'form#signup', field: 'input[name="email"]', since_load_ms: 1500 + 1000 * i })),
  ev('pp.form_submit', 30, 'f1', SIGNUP, {
    form: 'form#signup',
    duration_ms: 4000,
    since_load_ms: 1500,
    last_field: 'input[name="password"]',
    blank_fields: ['input[name="company"]'],
    fields: [field('email', 2500, { corrections: 2 }), field('password', 1200)],
  }),
  ev('pp.form_submit', 31, 'f2', SIGNUP, {
    form: 'form#signup',
    duration_ms: 6500,
    since_load_ms: 2500,
    last_field: 'input[name="password"]',
    blank_fields: [],
    fields: [field('email', 3000, { focus_count: 3 }), field('password', 900), field('company', 700)],
  }),
  ev('pp.form_submit', 32, 'f2', SIGNUP, { form: 'form#signup', duration_ms: 7000, since_load_ms: 2500, fields: [], blank_fields: [] }),
  ev('pp.form_abandon', 33, 'f3', SIGNUP, {
    form: 'form#signup',
    duration_ms: 9000,
    since_load_ms: 3500,
    last_field: 'input[name="email"]',
    fields: [field('email', 8000, { corrections: 5, to_change_ms: 2600 })],
  }),
  ev('pp.form_abandon', 34, 'f4', SIGNUP, {
    form: 'form#signup',
    duration_ms: 5000,
    since_load_ms: 4500,
    last_field: 'input[name="password"]',
    fields: [field('email', 1000), field('password', 3000, { changed: false })],
  }),
  // Forms started once each: the forms list pages.
  ...Array.from({ length: EXTRA }, (_, i) => ev('pp.form_start', i, `g${i}`, 'https://shop.example/landing', { form: `form#f-${String(i).padStart(2, '0')}` })),
]);

async function api(path: string, params: Record<string, string | undefined> = {}): Promise<any> {
  const qs = new URLSearchParams(Object.entries({ ...RANGE, ...params }).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await server.request('GET', `/api/v1/projects/${project.id}/${path}?${qs}`, { token });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** Every page of a list, as "Load more" would fetch them. */
async function allPages(path: string, params: Record<string, string> = {}): Promise<any[]> {
  const pages = [await api(path, params)];
  while (pages.at(-1).next_cursor) pages.push(await api(path, { ...params, cursor: pages.at(-1).next_cursor }));
  return pages;
}

/** The page's formatting of numbers, shares and durations. */
const num = (n: number | null) => (n === null ? '—' : n.toLocaleString('en-US'));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const ms = (x: number | null) => (x === null ? '—' : x < 1000 ? `${Math.round(x)}ms` : `${(x / 1000).toFixed(1)}s`);
const withRate = (n: number, rate: number) => `${num(n)} (${pct(rate)})`;
const depth = (d: number | null) => (d === null ? '—' : `${d.toFixed(1)}%`);

function rowsOf(p: Page, testId: string): Promise<string[][]> {
  return p
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
}

function tilesOf(p: Page, testId: string): Promise<Record<string, string>> {
  return p
    .getByTestId(testId)
    .locator('.tile')
    .evaluateAll((tiles) => Object.fromEntries(tiles.map((el) => [el.getAttribute('data-metric'), el.querySelector('.tile-value')?.textContent ?? ''])));
}

const pageRow = (p: any) => [
  p.url,
  num(p.events),
  num(p.page_views),
  num(p.clicks),
  num(p.unique_clickers),
  withRate(p.rage_clicks, p.rage_click_rate),
  withRate(p.dead_clicks, p.dead_click_rate),
  pct(p.scroll.reach_50),
  depth(p.scroll.mean_depth),
];
const elementRow = (e: any) => [e.selector, e.text ?? '—', num(e.clicks), num(e.rage_clicks), num(e.dead_clicks)];
const formRow = (f: any) => [
  f.form,
  f.url,
  num(f.views),
  withRate(f.starts, f.start_rate),
  withRate(f.submits, f.conversion_rate),
  withRate(f.abandons, f.abandonment_rate),
  num(f.resubmissions),
  num(f.starters),
  num(f.submitters),
  ms(f.median_time_to_submit_ms),
];
const fieldRow = (f: any) => [
  f.field,
  f.tag ?? '—',
  f.type ?? '—',
  num(f.drop_offs),
  pct(f.drop_off_rate),
  num(f.interactions),
  ms(f.median_time_ms),
  ms(f.median_to_change_ms),
  num(f.refocuses),
  num(f.corrections),
  num(f.left_blank),
];

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

/** A report opened from the navigation over the last week, chosen with its date chip. */
async function openReport(label: 'Pages' | 'Forms'): Promise<void> {
  await openFromNavigation(page, label);
  await page.getByRole('button', { name: '7 days', exact: true }).click();
  await eventually(
    'the last week chosen',
    async () => new URL(page.url()).searchParams.get('range'),
    (r) => r === 'last_7_days',
  );
}

t.test('the pages list, as the API answers it, and its next page', async (t) => {
  await openReport('Pages');
  t.equal(new URL(page.url()).pathname, `${base}/behavior/pages`);
  await page.getByTestId('behavior-pages').waitFor();
  const pages = await allPages('pages/behavior/urls');
  t.equal(pages.length, 2, 'more pages than 50 take two pages');
  t.equal(pages[0].items[0].url, PRICING, 'the page with the most events first, its query string dropped');
  t.same(await rowsOf(page, 'behavior-pages'), pages[0].items.map(pageRow), 'the first 50 pages and every figure');
  await page.getByRole('button', { name: 'Load more pages' }).click();
  const all = [...pages[0].items, ...pages[1].items].map(pageRow);
  t.same(
    await eventually(
      'the next page',
      () => rowsOf(page, 'behavior-pages'),
      (rows) => rows.length === all.length,
    ),
    all,
    'the rest appended in order',
  );
  t.equal(await page.getByRole('button', { name: 'Load more pages' }).count(), 0, 'no more to load');
  await checkAccessible(t, page, 'pages list');

  await page.getByRole('button', { name: 'Add a filter' }).click();
  await page.getByLabel('Filter 1 value').fill('/signup');
  await page.getByLabel('Filter 1 value').press('Enter');
  await eventually(
    'the filter in the address',
    async () => new URL(page.url()).searchParams.get('filter'),
    (f) => f === 'path|eq|/signup',
  );
  const filtered = await api('pages/behavior/urls', { filters: JSON.stringify([{ field: 'path', op: 'eq', value: '/signup' }]) });
  t.same(
    await eventually(
      'the filtered list',
      () => rowsOf(page, 'behavior-pages'),
      (rows) => rows.length === 1,
    ),
    filtered.items.map(pageRow),
    'the filter of the URL reaches the API',
  );

  // Reports take filters only: a saved segment is offered by the insight pages, not here.
  await grantEntitlements(server, ['saved_segments']);
  const made = await server.request('POST', `/api/v1/projects/${project.id}/segments`, { token, body: { name: 'Signups', filters: [{ field: 'path', op: 'eq', value: '/signup' }] } });
  t.equal(made.status, 201);
  // Loaded again so the session carries the new entitlement.
  await page.reload();
  await openFromNavigation(page, 'Segmentation');
  await page.getByRole('combobox', { name: 'Add a saved segment' }).waitFor();
  await openReport('Pages');
  await page.getByTestId('behavior-pages').waitFor();
  t.equal(await page.getByRole('button', { name: 'Add a filter' }).count(), 1);
  t.equal(await page.getByRole('combobox', { name: 'Add a saved segment' }).count(), 0, 'no saved segment offered');
  checkClean(t, tab);
});

t.test('a page report: figures, scroll reach, the heatmap of each band and the elements', async (t) => {
  await openReport('Pages');
  await page.getByRole('link', { name: PRICING, exact: true }).click();
  await page.getByTestId('page-figures').waitFor();
  const link = new URL(page.url());
  t.equal(link.pathname, `${base}/behavior/page`);
  t.same([link.searchParams.get('url'), link.searchParams.get('range')], [PRICING, 'last_7_days'], 'the page and the dates travel in the link');
  const pages = await allPages('pages/behavior', { url: PRICING });
  const r = pages[0];
  const s = r.summary;
  t.same(
    await tilesOf(page, 'page-figures'),
    {
      page_views: num(s.page_views),
      clicks: num(s.clicks),
      unique_clickers: num(s.unique_clickers),
      rage_clicks: withRate(s.rage_clicks, s.rage_click_rate),
      dead_clicks: withRate(s.dead_clicks, s.dead_click_rate),
      mean_depth: depth(s.scroll.mean_depth),
    },
    'the headline figures',
  );
  t.match(s, { page_views: 4, rage_clicks: 1, dead_clicks: 1 });

  const reach = await page.locator('[data-testid=scroll-reach] g.hbar').evaluateAll((bars) => bars.map((b) => Number(b.getAttribute('data-value'))));
  t.same(reach, [s.scroll.reach_25, s.scroll.reach_50, s.scroll.reach_75, s.scroll.reach_100], 'a bar per depth, its length the share that got that far');
  t.same(reach, [1, 2 / 3, 2 / 3, 1 / 3], 'depths 30, 80 and 100');

  // The default band is the one with the most clicks: desktop.
  const bands = Object.fromEntries(r.heatmap.bands.map((b: any) => [b.band, b]));
  t.equal(await page.getByLabel('Window width').inputValue(), 'desktop', 'the busiest band first');
  const cells = () =>
    page
      .locator('[data-testid=heatmap] rect.heat-cell')
      .evaluateAll((rects) => rects.map((c) => ({ x: Number(c.getAttribute('data-x')), y: Number(c.getAttribute('data-y')), clicks: Number(c.getAttribute('data-clicks')) })));
  t.same(await cells(), bands.desktop.cells, 'a rectangle per cell of the band, with its clicks');
  t.equal(bands.desktop.cells.length, 2 + EXTRA, 'the two Buy cells and one per extra element');
  t.equal(
    await page.locator('[data-testid=heatmap] rect.heat-cell title').first().textContent(),
    `${bands.desktop.cells[0].x}–${bands.desktop.cells[0].x + 2}% across, ${bands.desktop.cells[0].y}–${bands.desktop.cells[0].y + 25} px down: ${bands.desktop.cells[0].clicks} clicks`,
    'its count on hover',
  );
  t.match(await page.getByTestId('heatmap-fixed').textContent(), `${bands.desktop.fixed_clicks} click on fixed or sticky elements`);
  t.match(await page.getByTestId('heatmap-unplaced').textContent(), `${r.heatmap.unplaced} click from trackers older than 0.6.5`);
  t.ok((await page.getByTestId('heatmap-legend').textContent())!.includes('Clicks per cell'), 'a legend');

  await page.getByLabel('Window width').selectOption('tablet');
  await eventually(
    'the tablet band',
    () => page.locator('[data-testid=heatmap]').getAttribute('data-band'),
    (b) => b === 'tablet',
  );
  t.equal(new URL(page.url()).searchParams.get('band'), 'tablet', 'the band is in the URL');
  t.same(await cells(), bands.tablet.cells, 'the tablet band is drawn from its own cells');

  const elements = [...pages[0].items, ...(pages[1]?.items ?? [])];
  t.equal(pages.length, 2, 'the 57 elements take two pages');
  const drawnElements = async () => (await rowsOf(page, 'page-elements')).map((row) => row.slice(0, 5));
  t.same(await drawnElements(), pages[0].items.map(elementRow), 'the first 50 elements, ranked by clicks');
  t.same(
    pages[0].items.slice(0, 2).map((e: any) => [e.selector, e.text]),
    [
      ['button#buy', 'Buy'],
      ['body > nav:nth-child(1) > a.nav:nth-child(2)', 'Docs'],
    ],
  );
  const buyCells = await page
    .getByTestId('page-elements')
    .locator('tbody tr')
    .first()
    .locator('rect.element-cell')
    .evaluateAll((rects) => rects.map((c) => ({ x: Number(c.getAttribute('data-x')), y: Number(c.getAttribute('data-y')), clicks: Number(c.getAttribute('data-clicks')) })));
  t.same(buyCells, pages[0].items[0].cells, 'the mini heatmap of Buy: a square per 10 % cell with clicks');
  t.equal(await page.locator('code.selector', { hasText: 'button#buy' }).count(), 1, 'selectors in monospace');
  await page.getByRole('button', { name: 'Load more elements' }).click();
  t.same(await eventually('more elements', drawnElements, (rows) => rows.length === elements.length), elements.map(elementRow), 'the rest appended in order');
  await checkAccessible(t, page, 'page report');
  checkClean(t, tab);
});

t.test('the forms list, its next page, and one form with its fields', async (t) => {
  await openReport('Forms');
  await page.getByTestId('behavior-forms').waitFor();
  const pages = await allPages('forms');
  t.equal(pages.length, 2, 'more forms than 50 take two pages');
  const signup = pages[0].items[0];
  t.match(signup, { form: 'form#signup', url: SIGNUP, views: 4, starts: 4, submits: 2, resubmissions: 1, abandons: 2, conversion_rate: 0.5 });
  t.same(await rowsOf(page, 'behavior-forms'), pages[0].items.map(formRow), 'the first 50 forms: rates as percents, times as durations');
  await page.getByRole('button', { name: 'Load more forms' }).click();
  const all = [...pages[0].items, ...pages[1].items].map(formRow);
  t.same(
    await eventually(
      'more forms',
      () => rowsOf(page, 'behavior-forms'),
      (rows) => rows.length === all.length,
    ),
    all,
  );
  await checkAccessible(t, page, 'forms list');

  await page.getByRole('link', { name: 'form#signup' }).click();
  await page.getByTestId('form-figures').waitFor();
  const link = new URL(page.url());
  t.same([link.pathname, link.searchParams.get('form'), link.searchParams.get('url')], [`${base}/behavior/form`, 'form#signup', SIGNUP]);
  const d = await api('forms/detail', { form: 'form#signup', url: SIGNUP });
  t.match(d, { attempts: 5, submitted: 3, abandoned: 2 });
  t.same(await tilesOf(page, 'form-figures'), { attempts: num(d.attempts), submitted: num(d.submitted), abandoned: num(d.abandoned), median_hesitation_ms: ms(d.median_hesitation_ms) });
  t.same(await rowsOf(page, 'form-fields'), d.items.map(fieldRow), 'every figure of every field');
  const bars = await page.locator('[data-testid=field-funnel] g.hbar').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]));
  t.same(
    bars,
    d.items.map((f: any) => [f.field, f.drop_offs]),
    'a drop-off bar per field, ranked as the API ranks them',
  );
  t.same(
    d.items.slice(0, 2).map((f: any) => [f.field, f.drop_offs]),
    [
      ['input[name="email"]', 1],
      ['input[name="password"]', 1],
    ],
  );
  t.match(await page.getByTestId('no-values-note').textContent(), 'No entered value is ever collected');
  await checkAccessible(t, page, 'form report');
  checkClean(t, tab);
});

// The Web page's map of countries in chromium against the real server: opened from the
// navigation, the countries of the table shaded on the map and named with their visitors as the
// API counts them, a country clicked with the mouse and another chosen with Tab and Enter each
// filtering the whole page (the numbers compared with the API's answer to that filter), axe clean,
// and on a phone (390 px) the map scaled to the window with nothing scrolling sideways.

import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, daysBefore, openFromNavigation, signedInConsole, tabTo, UTC_TODAY } from '../console/consoleKit.js';
import { eventually } from '../support/eventually.js';
import { formatNumber } from '../../console/src/ui/format.js';
import { legendOf, shadeOf } from '../../console/src/web/mapShades.js';
import { WORLD_SHAPES } from '../../console/src/web/worldShapes.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

// Visitors per country, each with one or two visits of a page or two; Germany's on mobile and desktop.
const VISITORS: Record<string, number> = { DE: 9, US: 6, FR: 4, BR: 2, JP: 1 };
const events: SeedEvent[] = [];
for (const [country, visitors] of Object.entries(VISITORS)) {
  for (let v = 0; v < visitors; v++) {
    const start = Date.parse(`${daysBefore(1 + (v % 4))}T${String(8 + v).padStart(2, '0')}:00:00Z`);
    const props = { $country: country, $device_type: v % 2 ? 'mobile' : 'desktop', $channel: 'direct' };
    const paths = v % 3 ? ['/', '/pricing'] : ['/'];
    paths.forEach((path, i) => {
      events.push({ event: 'pp.page_view', ts: new Date(start + i * 60_000).toISOString(), anonymous_id: `${country}-${v}`, url: `https://shop.example${path}`, props });
    });
  }
}
await seedEvents(server, project.id, events);

const RANGE = { date_from: daysBefore(6), date_to: UTC_TODAY };
const country = new Intl.DisplayNames(['en'], { type: 'region' });
const nameOf = (r: { value: string; visitors: number }) => `${country.of(r.value)}, ${formatNumber(r.visitors)} ${r.visitors === 1 ? 'visitor' : 'visitors'}`;

const browser = await launchChromium();
t.teardown(() => browser.close());

const map = (p: Page) => p.getByTestId('web-map');

/** The map's countries as buttons: their names and shades, in the order drawn. */
function mapShown(p: Page): Promise<Array<{ name: string; shade: string }>> {
  return map(p)
    .locator('[role="button"]')
    .evaluateAll((paths) => paths.map((el) => ({ name: el.getAttribute('aria-label') ?? '', shade: /web-map-shade-(\d)/.exec(el.getAttribute('class') ?? '')?.[1] ?? '' })));
}

/** The totals and the countries table, as the page shows them. */
async function pageShown(p: Page) {
  const totals: string[] = [];
  for (const key of ['visitors', 'page_views']) totals.push((await p.getByTestId(`web-total-${key}`).locator('.web-total-value').textContent()) ?? '');
  const countries = await p
    .getByTestId('web-table-countries')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
  return { totals, countries, map: await mapShown(p) };
}

/** What the page should show for the API's answer. */
function expectedOf(answer: any) {
  const most = Math.max(...answer.countries.map((r: any) => r.visitors));
  return {
    totals: [formatNumber(answer.totals.visitors), formatNumber(answer.totals.page_views)],
    countries: answer.countries.map((r: any) => [country.of(r.value), formatNumber(r.visitors), formatNumber(r.visits)]),
    map: answer.countries.map((r: any) => ({ name: nameOf(r), shade: String(shadeOf(r.visitors, most)) })),
  };
}

/** The page shows the API's answer to `filters` over the week: totals, countries table and map. */
async function sameAsApi(t: Test, p: Page, filters: unknown[] | undefined, what: string) {
  const answer = await askQuery(server, token, project.id, 'web', { ...RANGE, ...(filters ? { filters } : {}) });
  const expected = expectedOf(answer);
  const shown = await eventually(
    `${what}: the page`,
    () => pageShown(p),
    (s) => JSON.stringify(s) === JSON.stringify(expected),
  ).catch(() => pageShown(p));
  t.strictSame(shown, expected, `${what}: the totals, the countries table and the map are the API's`);
  return answer;
}

/** Opens the Web page from the navigation and picks the last week. */
async function openWeb(p: Page) {
  await openFromNavigation(p, 'Web analytics');
  await p.getByRole('button', { name: '7 days', exact: true }).click();
  await addressBuilt(p, 'the last week chosen', (q) => q.get('range') === 'last_7_days' && !q.get('filter'));
  await map(p).waitFor();
}

t.test('the outlines: one path per country code, well formed, small', async (t) => {
  const codes = Object.keys(WORLD_SHAPES);
  t.ok(codes.length > 170, `${codes.length} countries`);
  t.ok(
    codes.every((c) => /^[A-Z]{2}$/.test(c)),
    'keyed by alpha-2 code',
  );
  for (const code of ['DE', 'US', 'FR', 'BR', 'JP', 'XK', 'CY', 'SO']) t.ok(WORLD_SHAPES[code], `${code} is drawn`);
  t.notOk(WORLD_SHAPES.AQ, 'Antarctica is left out');
  t.ok(
    Object.values(WORLD_SHAPES).every((d) => /^(M-?\d+ -?\d+l(-?\d+(?: |(?=-))?)+z)+$/.test(d)),
    'every path is moves and relative lines',
  );
  t.strictSame(legendOf(9), [
    { shade: 1, from: 1, to: 1 },
    { shade: 2, from: 2, to: 3 },
    { shade: 3, from: 4, to: 5 },
    { shade: 4, from: 6, to: 7 },
    { shade: 5, from: 8, to: 9 },
  ]);
  t.strictSame(legendOf(2), [
    { shade: 3, from: 1, to: 1 },
    { shade: 5, from: 2, to: 2 },
  ]);
  t.strictSame(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((v) => shadeOf(v, 9)),
    [1, 2, 2, 3, 3, 4, 4, 5, 5],
    'every count in the shade its legend names',
  );
});

t.test('a country on the map filters the whole page, with the mouse and with the keyboard', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await openWeb(page);
  const all = await sameAsApi(t, page, undefined, 'the whole week');
  t.equal(all.countries.length, 5, 'the five countries seeded');
  t.equal(await map(page).locator('path').count(), Object.keys(WORLD_SHAPES).length, 'every country drawn');
  const legend = await page.getByRole('list', { name: 'Visitors per shade' }).getByRole('listitem').allTextContents();
  t.strictSame(
    legend.map((s) => s.trim()),
    [...legendOf(9).map((l) => (l.from === l.to ? `${l.from}` : `${l.from}–${l.to}`)), 'not in the table'],
    'the legend',
  );
  await checkAccessible(t, page, 'the Web page with its map');

  // The mouse, on Germany's outline (Playwright clicks the middle of it, and fails if another shape is on top there).
  await map(page)
    .getByRole('button', { name: nameOf({ value: 'DE', visitors: 9 }) })
    .click();
  await addressBuilt(page, 'Germany in the address', (q) => q.get('filter') === 'props.$country|eq|DE');
  const germany = await sameAsApi(t, page, [{ field: 'props.$country', op: 'eq', value: 'DE' }], 'Germany, chosen on the map');
  t.strictSame(
    germany.countries.map((r: any) => r.value),
    ['DE'],
    'only Germany left',
  );
  t.equal(germany.totals.visitors, 9, "Germany's nine visitors");

  // The keyboard, from a fresh page: Tab to the United States, then Enter.
  await openWeb(page);
  await sameAsApi(t, page, undefined, 'the whole week again');
  const us = map(page).getByRole('button', { name: nameOf({ value: 'US', visitors: 6 }) });
  await tabTo(page, us);
  await page.keyboard.press('Enter');
  await addressBuilt(page, 'the United States in the address', (q) => q.get('filter') === 'props.$country|eq|US');
  const states = await sameAsApi(t, page, [{ field: 'props.$country', op: 'eq', value: 'US' }], 'the United States, chosen by keyboard');
  t.equal(states.totals.visitors, 6, 'its six visitors');
  checkClean(t, tab);
});

// How far the document is wider than the window (0 when it fits, with a pixel for rounding).
const OVERFLOW = 'document.documentElement.scrollWidth - window.innerWidth - 1';

t.test('on a phone the map scales to the window and nothing scrolls sideways', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await page.setViewportSize({ width: 390, height: 844 });
  await openWeb(page);
  await sameAsApi(t, page, undefined, 'on a phone');
  t.ok(((await page.evaluate(OVERFLOW)) as number) <= 0, 'no sideways scrolling of the page');
  const box = (await map(page).boundingBox())!;
  t.ok(box.x >= 0 && box.x + box.width <= 390 && box.width > 250, `the map within the window (${Math.round(box.x)} to ${Math.round(box.x + box.width)} px)`);
  t.ok(Math.abs(box.height / box.width - 429 / 1000) < 0.02, 'and scaled whole, not cropped');
  checkClean(t, tab);
});

// The Web page in chromium against the real server: opened from the navigation, its totals and
// tables compared number by number with the API's answer to the same question, then rows clicked
// as filters (a country, then a device: both hold, in the address and in the numbers), and the
// live count. Events are seeded with the fields ingestion derives.

import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { addressBuilt, askQuery, checkAccessible, daysBefore, openFromNavigation, signedInConsole, UTC_TODAY } from '../console/consoleKit.js';
import { eventually } from '../support/eventually.js';
import { formatDuration, formatNumber } from '../../console/src/ui/format.js';

const now = new Date();
const server = await startTestServer(t, { settings: ROOMY_LIMITS, now });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

const SITE = 'https://shop.example';
type Client = Record<string, string>;
const DE_MOBILE: Client = { $country: 'DE', $device_type: 'mobile', $browser: 'Safari', $os: 'iOS' };
const DE_DESKTOP: Client = { $country: 'DE', $device_type: 'desktop', $browser: 'Firefox', $os: 'Linux' };
const US_MOBILE: Client = { $country: 'US', $device_type: 'mobile', $browser: 'Chrome', $os: 'Android' };
const FR_DESKTOP: Client = { $country: 'FR', $device_type: 'desktop', $browser: 'Chrome', $os: 'Windows' };
const SOURCES: Client[] = [
  { $channel: 'organic search', $referring_domain: 'google.com' },
  { $channel: 'social', $referring_domain: 't.co', $utm_campaign: 'launch' },
  { $channel: 'direct' },
  { $channel: 'email', $utm_campaign: 'newsletter' },
];

/** A visit: its landing page view with the source, then more pages two minutes apart. */
function visit(who: string, daysAgo: number, hour: number, client: Client, source: Record<string, string>, paths: string[]): SeedEvent[] {
  const start = Date.parse(`${daysBefore(daysAgo)}T${String(hour).padStart(2, '0')}:00:00Z`);
  return paths.map((path, i) => ({
    event: 'pp.page_view',
    ts: new Date(start + i * 120_000).toISOString(),
    anonymous_id: who,
    url: `${SITE}${path}`,
    props: { ...client, ...(i === 0 ? source : { $channel: 'internal', $referring_domain: 'shop.example' }) },
  }));
}

const clients = [DE_MOBILE, DE_DESKTOP, US_MOBILE, FR_DESKTOP];
const events: SeedEvent[] = [];
for (let v = 0; v < 24; v++) {
  const paths = [['/'], ['/', '/pricing'], ['/blog/a', '/', '/pricing', '/signup'], ['/docs']][v % 4]!;
  events.push(...visit(`v${v % 15}`, 1 + (v % 5), 8 + (v % 9), clients[v % 4]!, SOURCES[(v >> 2) % 4]!, paths));
}
// Someone on the site right now, and one visit in the week before (the previous period).
events.push({ event: 'pp.page_view', ts: new Date(now.getTime() - 60_000).toISOString(), anonymous_id: 'now', url: `${SITE}/`, props: DE_MOBILE });
events.push(...visit('old', 9, 10, US_MOBILE, SOURCES[0]!, ['/', '/pricing']));
await seedEvents(server, project.id, events);

const RANGE = { date_from: daysBefore(6), date_to: UTC_TODAY };
const show = {
  visitors: (v: number) => formatNumber(v),
  page_views: (v: number) => formatNumber(v),
  views_per_visit: (v: number | null) => (v === null ? '–' : v.toFixed(2)),
  bounce_rate: (v: number | null) => (v === null ? '–' : `${Math.round(v * 100)}%`),
  visit_duration: (v: number | null) => (v === null ? '–' : formatDuration(Math.round(v))),
};
const country = new Intl.DisplayNames(['en'], { type: 'region' });

async function totalsShown(p: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(show)) out[key] = (await p.getByTestId(`web-total-${key}`).locator('.web-total-value').textContent()) ?? '';
  return out;
}

function totalsOf(answer: any): Record<string, string> {
  return Object.fromEntries(Object.entries(show).map(([k, f]) => [k, (f as (v: number | null) => string)(answer.totals[k])]));
}

function rowsShown(p: Page, table: string): Promise<string[][]> {
  return p
    .getByTestId(`web-table-${table}`)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
}

const rowsOf = (answer: any, table: string) =>
  answer[table].map((r: any) => [
    r.value === null ? '(none)' : table === 'countries' ? country.of(r.value) : r.value,
    formatNumber(r.visitors),
    formatNumber(table === 'pages' ? r.page_views : r.visits),
  ]);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

/** The page's numbers, once they are the API's answer to `filters`. */
async function sameAsApi(t: Test, filters: unknown[] | undefined, what: string) {
  const answer = await askQuery(server, token, project.id, 'web', { ...RANGE, ...(filters ? { filters } : {}) });
  const expected = totalsOf(answer);
  t.strictSame(
    await eventually(
      `${what}: the totals`,
      () => totalsShown(page),
      (shown) => JSON.stringify(shown) === JSON.stringify(expected),
    ),
    expected,
    `${what}: every total`,
  );
  for (const table of ['pages', 'entry_pages', 'channels', 'campaigns', 'countries', 'devices', 'browsers']) {
    t.strictSame(await rowsShown(page, table), rowsOf(answer, table), `${what}: ${table}`);
  }
  return answer;
}

t.test("the Web page shows the API's numbers, and rows filter the whole page", async (t) => {
  await openFromNavigation(page, 'Web analytics');
  t.equal(new URL(page.url()).pathname, `/projects/${project.id}/web`);
  await page.getByRole('button', { name: '7 days', exact: true }).click();
  await addressBuilt(page, 'the last week chosen', (q) => q.get('range') === 'last_7_days');
  const all = await sameAsApi(t, undefined, 'the whole week');
  t.ok(all.totals.visits > 20 && all.previous.visits === 1, 'the data seeded is there');
  await checkAccessible(t, page, 'the Web page');

  await page.getByTestId('web-table-countries').getByRole('button', { name: 'Germany' }).click();
  await addressBuilt(page, 'Germany in the address', (q) => q.get('filter') === 'props.$country|eq|DE');
  const de = [{ field: 'props.$country', op: 'eq', value: 'DE' }];
  const germany = await sameAsApi(t, de, 'Germany');
  t.ok(germany.totals.visits < all.totals.visits, 'fewer visits');

  await page.getByTestId('web-table-devices').getByRole('button', { name: 'mobile' }).click();
  await addressBuilt(page, 'both filters in the address', (q) => q.get('filter') === 'props.$country|eq|DE~props.$device_type|eq|mobile');
  const both = await sameAsApi(t, [...de, { field: 'props.$device_type', op: 'eq', value: 'mobile' }], 'Germany on mobile');
  t.ok(both.totals.visits < germany.totals.visits, 'fewer again');
  t.strictSame(
    both.countries.map((r: any) => r.value),
    ['DE'],
    'only Germany left',
  );

  const live = await askQuery(server, token, project.id, 'web', { date_from: UTC_TODAY, date_to: UTC_TODAY, filters: [...de, { field: 'props.$device_type', op: 'eq', value: 'mobile' }] });
  t.equal(live.live_visitors, 1, 'one visitor in the last five minutes');
  t.equal(
    await eventually(
      'the live count',
      async () => page.getByTestId('web-live').textContent(),
      (x) => x === '1',
    ),
    '1',
    'the live count shown',
  );
});

// The data pages in chromium: the events explorer (rows and their order equal the list API's in
// either order, filters go into the URL, cursor paging), the Integration Doctor view with a refused
// attempt, and the catalogs with their first and last event times.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, signedInConsole } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server);
const key = createIngestKey(server, project);
const now = Date.now();
const events = Array.from({ length: 62 }, (_, i) => ({
  event: i % 3 === 0 ? 'signup' : 'pp.page_view',
  uuid: randomUUID(),
  ts: new Date(now - (62 - i) * 60_000).toISOString(),
  user_id: `user-${i % 7}`,
  url: `https://shop.example/p/${i}`,
  props: { plan: i % 2 ? 'pro' : 'free', n: i },
}));
const stored = await ingestEvents(server, key, events);
if (stored.status !== 202) throw new Error(`ingest: ${stored.status} ${stored.text}`);
// A refused attempt: neither identity is given.
await ingestEvents(server, key, [{ event: 'orphan' }]);
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

async function listed(query: string): Promise<string[]> {
  const uuids: string[] = [];
  let cursor: string | null = null;
  do {
    const res: { body: { items: Array<{ uuid: string }>; next_cursor: string | null } } = await server.request(
      'GET',
      `/api/v1/projects/${project.id}/events?limit=50&${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    uuids.push(...res.body.items.map((e: { uuid: string }) => e.uuid));
    cursor = res.body.next_cursor;
  } while (cursor);
  return uuids;
}

const drawnUuids = () => page.locator('.event-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-uuid')!));
/** A time as the console prints it (formatDateTime), in the browser's own locale and zone. */
const printed = (iso: string) => page.evaluate((v) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(v)), iso);

t.test('events: the list API order, paged with the cursor', async (t) => {
  await page.getByRole('link', { name: 'Events', exact: true }).click();
  await page.getByTestId('events-table').waitFor();
  t.equal((await drawnUuids()).length, 50, 'a first page of 50');
  await page.getByRole('button', { name: 'Load more' }).click();
  await page.locator('.event-row').nth(50).waitFor();
  t.same(await drawnUuids(), await listed(''), 'every event, in the order of the list API');
  t.equal(await page.getByRole('button', { name: 'Load more' }).count(), 0, 'no more pages');
  await checkAccessible(t, page, 'events');
});

t.test('events: the order switch sorts by event time, and the first column names its time', async (t) => {
  const table = page.getByTestId('events-table');
  const firstHeader = () => table.locator('th').first().textContent();
  t.equal(await firstHeader(), 'Received', 'by default the first column is the time of receipt');
  const byTime = await listed('order=event_time');
  // Sent in one request, the events share a receipt time: the two orders differ.
  t.notSame(byTime, await listed(''), 'the orders differ on these events');
  await page.getByRole('group', { name: 'Order by' }).getByRole('button', { name: 'Event time' }).click();
  await page.waitForURL(/order=event_time/);
  t.same(await eventually('the first page by event time', drawnUuids, (rows) => rows[0] === byTime[0] && rows.length === 50), byTime.slice(0, 50), 'the first page, as the API orders it');
  t.equal(await firstHeader(), 'Event time');
  await page.getByRole('button', { name: 'Load more' }).click();
  await page.locator('.event-row').nth(50).waitFor();
  t.same(await drawnUuids(), byTime, 'every event, in the API’s event-time order');
  const first = events.find((e) => e.uuid === byTime[0])!;
  t.equal(await table.locator('.event-row').first().locator('td').first().textContent(), await printed(first.ts), 'the first column shows the event time');
  await page.getByRole('group', { name: 'Order by' }).getByRole('button', { name: 'Received' }).click();
  const byReceipt = await listed('');
  t.same(await eventually('the first page by receipt', drawnUuids, (rows) => rows[0] === byReceipt[0] && rows.length === 50), byReceipt.slice(0, 50), 'back to the order of receipt');
  t.equal(await firstHeader(), 'Received');
  await checkAccessible(t, page, 'events by event time');
});

t.test('events: filters are applied, kept in the URL and equal the API', async (t) => {
  await page.getByLabel('Event names').fill('signup');
  await page.getByLabel('User id').fill('user-3');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.waitForURL(/event=signup/);
  t.match(page.url(), 'user_id=user-3');
  const want = await listed('event=signup&user_id=user-3');
  t.same(await eventually('the filtered rows', drawnUuids, (rows) => rows.length === want.length), want);
  t.ok(want.length >= 2, `several events match (${want.length})`);
  await page.locator('.event-row').first().getByRole('button').click();
  const json = JSON.parse((await page.locator('.event-json pre').textContent())!);
  t.match(json, { uuid: want[0], event: 'signup', user_id: 'user-3' }, 'the full JSON of an event');
});

t.test('the doctor view shows the refused attempt with its reason', async (t) => {
  await page.goto(`/projects/${project.id}/events`);
  await page.getByRole('button', { name: 'Doctor' }).click();
  const refused = page.getByTestId('doctor-table').locator('tr[data-outcome=rejected]');
  await refused.waitFor();
  const doctor = await server.request(
    'GET',
    `/api/v1/projects/${project.id}/events?view=doctor&from=${new Date(now - 86_400_000).toISOString()}&to=${new Date(now + 3_600_000).toISOString()}&invalid_only=true`,
    { token },
  );
  const record = doctor.body.items.find((r: { kind: string }) => r.kind === 'rejected');
  t.match(await refused.textContent(), record.code, 'the refusal code the API records');
  t.equal(await refused.count(), 1);
  await checkAccessible(t, page, 'doctor');
});

t.test('catalogs: event counts, then the keys of one event', async (t) => {
  await page.goto(`/projects/${project.id}/catalog`);
  const table = page.getByTestId('event-catalog');
  await table.waitFor();
  const api = (await server.request('GET', `/api/v1/projects/${project.id}/catalog/events`, { token })).body.items;
  const drawn = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [r.children[0]!.textContent, Number(r.children[1]!.textContent!.replace(/,/g, ''))]));
  t.same(
    drawn,
    api.map((e: { event: string; count: number }) => [e.event, e.count]),
  );
  t.same(await table.locator('th').allTextContents(), ['Event', 'Count', 'First event time', 'Last event time'], 'the headers name the time shown');
  const signup = api.find((e: { event: string }) => e.event === 'signup');
  const signupRow = table.locator('tbody tr').filter({ has: page.getByRole('button', { name: 'signup', exact: true }) });
  t.same((await signupRow.locator('td').allTextContents()).slice(2), [await printed(signup.first_event_time), await printed(signup.last_event_time)], 'the API’s first and last event time');
  t.not(await printed(signup.first_event_time), await printed(signup.first_seen), 'the first signup happened an hour before it was received');
  await table.getByRole('button', { name: 'signup' }).click();
  await page.getByRole('heading', { name: 'Properties of signup' }).waitFor();
  const keys = (await server.request('GET', `/api/v1/projects/${project.id}/catalog/props?event=signup`, { token })).body.items.map((p: { key: string }) => `props.${p.key}`);
  const drawnKeys = () => page.getByTestId('property-catalog').locator('code').allTextContents();
  t.same(await eventually('the keys of signup', drawnKeys, (k) => k.join() === keys.join()), keys);
  // The channel is derived for every event sent from a browser (docs/web-analytics.md).
  t.same(keys.sort(), ['props.$channel', 'props.n', 'props.plan']);
  await checkAccessible(t, page, 'catalog');
  checkClean(t, tab);
});

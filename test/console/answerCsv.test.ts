// Downloading an insight's numbers as CSV, in chromium against the real server: on the activity
// page and the stickiness page, opened from the navigation, the "Download CSV" button saves a file
// whose numbers are the API's answer to the query the page sent.

import t from 'tap';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { answeredQuery, askQuery, checkClean, daysBefore, openFromNavigation, recordQueries, signedInConsole } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
// Three people: one active on three days, one on two, one on one (yesterday, and before).
const events: SeedEvent[] = [
  ...[1, 2, 3].map((d) => ({ event: 'view', ts: `${daysBefore(d)}T10:00:00Z`, user_id: 'u1' })),
  ...[1, 2].map((d) => ({ event: 'view', ts: `${daysBefore(d)}T11:00:00Z`, user_id: 'u2' })),
  { event: 'view', ts: `${daysBefore(1)}T12:00:00Z`, user_id: 'u3' },
];
await seedEvents(server, project.id, events);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const sent = await recordQueries(page);

/** Clicks the page's Download CSV button and parses the saved file (no quoted cells in these answers). */
async function downloadedCsv(p: Page): Promise<Array<Record<string, string>>> {
  const [download] = await Promise.all([p.waitForEvent('download'), p.getByRole('button', { name: 'Download CSV' }).first().click()]);
  t.match(download.suggestedFilename(), /\.csv$/);
  const [header, ...lines] = (await readFile((await download.path())!, 'utf8')).trim().split('\r\n');
  const columns = header!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i]!, v])));
}

t.test('activity: the CSV holds the answer the tiles draw', async (t) => {
  await openFromNavigation(page, 'Activity');
  await page.getByTestId('activity-tiles').waitFor();
  const body = await answeredQuery(page, sent, 'activity-summary', () => true);
  const expected = await askQuery(server, token, project.id, 'activity-summary', body);
  const [row] = await downloadedCsv(page);
  for (const metric of ['dau', 'wau', 'mau']) t.equal(Number(row![metric]), expected[metric], metric);
  t.equal(Number(row!.mau), 3);
});

t.test('stickiness: one CSV row per number of active days', async (t) => {
  await openFromNavigation(page, 'Stickiness');
  const body = await answeredQuery(page, sent, 'stickiness', () => true);
  await page.getByRole('button', { name: 'Download CSV' }).waitFor();
  const expected = await askQuery(server, token, project.id, 'stickiness', body);
  const rows = await downloadedCsv(page);
  t.same(
    rows.filter((r) => r['distribution.days'] !== undefined).map((r) => [Number(r['distribution.days']), Number(r['distribution.actors'])]),
    expected.distribution.map((d: { days: number; actors: number }) => [d.days, d.actors]),
  );
  t.same(
    expected.distribution.filter((d: { actors: number }) => d.actors > 0).map((d: { days: number; actors: number }) => [d.days, d.actors]),
    [
      [1, 1],
      [2, 1],
      [3, 1],
    ],
  );
  checkClean(t, tab);
});

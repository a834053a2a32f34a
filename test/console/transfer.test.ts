// Imports and exports in the project settings, in chromium against the real server: an admin opens
// the settings from the navigation, picks a PostHog export with the file control and the format
// with the select, and follows the import to its end, whose counts are the API's; then starts an
// export, downloads it with the button, and gets the same file the API's link gives.

import t from 'tap';
import { readFile } from 'node:fs/promises';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, openFromNavigation, signedInConsole } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const POSTHOG = [
  { uuid: U(1), event: '$pageview', distinct_id: 'anon-1', timestamp: '2024-05-01 10:00:00', properties: { $current_url: 'https://shop.example/', $device_id: 'anon-1' } },
  { uuid: U(2), event: 'signup', distinct_id: 'user-1', timestamp: '2024-05-01 10:05:00', properties: { plan: 'pro' } },
  { uuid: U(3), distinct_id: 'user-1', timestamp: '2024-05-01 10:06:00', properties: {} },
  { uuid: U(2), event: 'signup', distinct_id: 'user-1', timestamp: '2024-05-01 10:05:00', properties: { plan: 'pro' } },
]
  .map((e) => JSON.stringify(e))
  .join('\n');

const browser = await launchChromium();
t.teardown(() => browser.close());

t.test('an admin imports a file and downloads an export from the project settings', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const page = tab.page;
  await openFromNavigation(page, 'Project settings');
  const card = page.getByRole('region', { name: 'Imports and exports' });
  await card.waitFor();

  await card.getByLabel('File').setInputFiles({ name: 'events.jsonl', mimeType: 'application/octet-stream', buffer: Buffer.from(POSTHOG) });
  await card.getByLabel('Format', { exact: true }).selectOption('posthog');
  await card.getByRole('button', { name: 'Import', exact: true }).click();
  const row = card.getByTestId('imports').locator('tbody tr').first();
  await card.getByTestId('imports').locator('tbody tr[data-state="succeeded"], tbody tr[data-state="failed"]').first().waitFor({ timeout: 30_000 });
  const id = Number(await row.getAttribute('data-id'));
  const job = (await server.request('GET', `/api/v1/projects/${project.id}/imports/${id}`, { token })).body;
  t.match(job, { state: 'succeeded', stored: 2, duplicates: 1, rejected: 1 });
  t.equal(await row.getAttribute('data-state'), 'succeeded');
  t.equal(await row.locator('[data-col="stored"]').textContent(), String(job.stored));
  t.equal(await row.locator('[data-col="duplicates"]').textContent(), String(job.duplicates));
  t.equal(await row.locator('[data-col="rejected"]').textContent(), String(job.rejected));
  t.equal(await row.locator('[data-col="rejected"]').getAttribute('title'), 'events.jsonl line 3: event name is required');

  await card.getByLabel('Export format').selectOption('ndjson');
  await card.getByRole('button', { name: 'Export', exact: true }).click();
  const exportRow = card.getByTestId('exports').locator('tbody tr').first();
  await exportRow.getByRole('link', { name: 'Download' }).waitFor({ timeout: 30_000 });
  const exportId = Number(await exportRow.getAttribute('data-id'));
  const exported = (await server.request('GET', `/api/v1/projects/${project.id}/exports/${exportId}`, { token })).body;
  t.equal(exported.events, 2);
  t.equal(await exportRow.locator('[data-col="events"]').textContent(), String(exported.events));
  const [download] = await Promise.all([page.waitForEvent('download'), exportRow.getByRole('link', { name: 'Download' }).click()]);
  const file = await readFile((await download.path())!, 'utf8');
  const viaApi = await (await fetch(server.url + exported.download_url)).text();
  t.equal(file, viaApi, 'the downloaded file is the export');
  t.same(
    file
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).uuid)
      .sort(),
    [U(1), U(2)],
  );

  await checkAccessible(t, page, 'project settings with imports and exports');
  checkClean(t, tab);
});

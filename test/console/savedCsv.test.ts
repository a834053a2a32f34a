// Downloading a saved insight's numbers as CSV, in chromium against the real server: on the saved
// insight's page (opened from the navigation), on the insight shared by a link and on a shared
// dashboard's tile (each link made in the share dialog and opened in a fresh browser, as whoever
// receives it would), the "Download CSV" button saves a file whose rows are the API's answer.

import t, { type Test } from 'tap';
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkClean, daysBefore, openConsole, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const api = async (method: string, path: string, body?: unknown) => {
  const res = await server.request(method, `/api/v1${path}`, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};

// Person i views the home page on day i % 9 before today; every second one views the pricing page,
// every third signs up: a different count on each day, and a funnel that narrows.
await seedEvents(
  server,
  project.id,
  Array.from({ length: 30 }, (_, i): SeedEvent[] => {
    const day = daysBefore(i % 9);
    const who = { anonymous_id: `p${i}` };
    return [
      { event: 'pp.page_view', ts: `${day}T09:00:00Z`, url: 'https://shop.example/', ...who },
      ...(i % 2 === 0 ? [{ event: 'pp.page_view', ts: `${day}T09:05:00Z`, url: 'https://shop.example/pricing', ...who }] : []),
      ...(i % 3 === 0 ? [{ event: 'signup', ts: `${day}T10:00:00Z`, ...who }] : []),
    ];
  }).flat(),
);
const SEGMENTATION = { event: 'pp.page_view', metric: 'events', interval: 'day', date_from: daysBefore(9), date_to: UTC_TODAY };
const FUNNEL = { steps: [{ event: 'pp.page_view' }, { event: 'signup' }], date_from: daysBefore(9), date_to: UTC_TODAY, window_hours: 24, count_by: 'actors' };
const views = await api('POST', `/projects/${project.id}/insights`, { name: 'Page views, daily', kind: 'segmentation', query: SEGMENTATION });
const funnel = await api('POST', `/projects/${project.id}/insights`, { name: 'Signup funnel', kind: 'funnel', query: FUNNEL });
const dashboard = await api('POST', `/projects/${project.id}/dashboards`, { name: 'Growth' });
const tile = await api('POST', `/projects/${project.id}/dashboards/${dashboard.id}/tiles`, { insight_id: funnel.id });

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

/** One CSV text as rows of named cells (RFC 4180: quoted cells may hold commas, quotes and line feeds). */
function parseCsv(text: string): Array<Record<string, string>> {
  const records: string[][] = [];
  let fields: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (cell += '"'), i++;
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') fields.push(cell), (cell = '');
    else if (c === '\r' && text[i + 1] === '\n') fields.push(cell), records.push(fields), (fields = []), (cell = ''), i++;
    else cell += c;
  }
  const [header, ...rows] = records;
  return rows.map((r) => Object.fromEntries(r.map((v, i) => [header![i]!, v])));
}

/** Clicks Download CSV within `scope` and reads the saved file. */
async function downloadedCsv(t: Test, p: Page, scope: Locator, name: string): Promise<Array<Record<string, string>>> {
  const [download] = await Promise.all([p.waitForEvent('download'), scope.getByRole('button', { name: 'Download CSV' }).click()]);
  t.equal(download.suggestedFilename(), `${name}.csv`, 'named after the insight');
  return parseCsv(await readFile((await download.path())!, 'utf8'));
}

/** The daily points of a segmentation answer as [bucket, value], and the same columns of the CSV. */
const answerPoints = (answer: any): Array<[string, number]> => answer.series.flatMap((s: any) => s.points.map((p: any) => [p.bucket, p.value]));
const csvPoints = (rows: Array<Record<string, string>>): Array<[string, number]> =>
  rows.filter((r) => r['series.points.bucket']).map((r) => [r['series.points.bucket']!, Number(r['series.points.value'])]);
const answerSteps = (answer: any): Array<[string, number]> => answer.steps.map((s: any) => [s.event, s.count]);
const csvSteps = (rows: Array<Record<string, string>>): Array<[string, number]> =>
  rows.filter((r) => r['steps.count'] !== undefined && r['steps.count'] !== '').map((r) => [r['steps.event']!, Number(r['steps.count'])]);

/** What the page was answered by `path` (a POST), read off the network as the page received it. */
const answered = (p: Page, path: RegExp) => p.waitForResponse((r) => r.request().method() === 'POST' && path.test(new URL(r.url()).pathname) && r.ok()).then((r) => r.json());

/** Opens the share dialog of the page's insight or dashboard and makes a link; answers its address. */
async function shareLink(p: Page): Promise<string> {
  await p.getByRole('button', { name: 'Share' }).click();
  const dialog = p.getByTestId('share-dialog');
  await dialog.getByRole('button', { name: 'Create a link' }).click();
  const address = (await dialog.getByTestId('share-url').textContent())!;
  await p.keyboard.press('Escape');
  return new URL(address).pathname;
}

t.test('a saved insight: its page offers the answer as CSV, and so does its share link', async (t) => {
  await openFromNavigation(page, 'Saved insights');
  await page.getByTestId('saved-insights').waitFor();
  const shown = answered(page, new RegExp(`/insights/${views.id}/result$`));
  await page.getByRole('link', { name: 'Page views, daily' }).click();
  const onPage = await shown;
  const expected = await api('POST', `/projects/${project.id}/insights/${views.id}/result`, {});
  t.same(answerPoints(onPage), answerPoints(expected), 'the page was answered what the API answers');
  t.equal(answerPoints(expected).length, 10, 'ten days');
  t.ok(
    answerPoints(expected).some(([, v]) => v > 0),
    'with page views',
  );
  const answer = page.getByTestId('insight-answer');
  t.same(csvPoints(await downloadedCsv(t, page, answer, 'Page-views-daily')), answerPoints(expected), 'the CSV has every day of the answer');

  const path = await shareLink(page);
  t.match(path, /^\/shared\/pps_/);
  const visitor = await openConsole(browser, server, '/');
  t.teardown(() => visitor.close());
  const sharedAnswer = answered(visitor.page, /^\/api\/v1\/shared\/[^/]+\/result$/);
  await visitor.page.goto(path);
  const got = await sharedAnswer;
  await visitor.page.getByRole('heading', { name: 'Page views, daily', level: 1 }).waitFor();
  const viaLink = (await server.request('POST', `/api/v1${path}/result`, { body: {} })).body;
  t.same(answerPoints(got), answerPoints(viaLink));
  t.same(answerPoints(viaLink), answerPoints(expected), 'the link answers as the project does');
  t.same(csvPoints(await downloadedCsv(t, visitor.page, visitor.page.getByTestId('insight-answer'), 'Page-views-daily')), answerPoints(viaLink), 'the shared insight downloads the same rows');
  checkClean(t, visitor);
  checkClean(t, tab);
});

t.test('a shared dashboard: each tile downloads its own answer', async (t) => {
  await openFromNavigation(page, 'Dashboards');
  await page.getByTestId('dashboards').getByRole('link', { name: 'Growth' }).click();
  await page.getByRole('heading', { name: 'Growth', level: 1 }).waitFor();
  const path = await shareLink(page);
  const visitor = await openConsole(browser, server, '/');
  t.teardown(() => visitor.close());
  const tileAnswer = answered(visitor.page, new RegExp(`^/api/v1/shared/[^/]+/tiles/${tile.id}/result$`));
  await visitor.page.goto(path);
  const got = await tileAnswer;
  const viaLink = (await server.request('POST', `/api/v1${path}/tiles/${tile.id}/result`, { body: {} })).body;
  const expected = await api('POST', `/projects/${project.id}/insights/${funnel.id}/result`, {});
  t.same(answerSteps(got), answerSteps(viaLink), 'the tile was answered what the link answers');
  t.same(answerSteps(viaLink), answerSteps(expected), 'and the project');
  t.same(
    answerSteps(expected).map(([, n]) => n),
    [30, 10],
    'thirty people viewed, ten signed up',
  );
  const card = visitor.page.locator('[data-testid=dash-tile]').filter({ has: visitor.page.getByRole('heading', { name: 'Signup funnel', exact: true }) });
  await card.getByTestId('tile-answer').waitFor();
  t.same(csvSteps(await downloadedCsv(t, visitor.page, card, 'Signup-funnel')), answerSteps(viaLink), 'the CSV has each step of the answer');
  checkClean(t, visitor);
  checkClean(t, tab);
});

// The correlations view in chromium against the real server: reached from a funnel with its last
// step as the conversion, it shows the non-causality warning, the population and every candidate's
// figures exactly as the API answers the same question.

import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore, openFromNavigation, signedInConsole, tabTo, UTC_TODAY } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

const today = UTC_TODAY;
const from = daysBefore(6);
const day = daysBefore(2);

/** Eight people: the ones who read the docs and saw pricing mostly buy. */
function person(who: string, events: string[]): SeedEvent[] {
  return events.map((event, i) => ({ event, ts: `${day}T10:${String(i * 5).padStart(2, '0')}:00Z`, user_id: who }));
}
await seedEvents(server, project.id, [
  ...person('u1', ['view', 'docs', 'pricing', 'purchase']),
  ...person('u2', ['view', 'pricing', 'purchase']),
  ...person('u3', ['view', 'docs', 'purchase']),
  ...person('u4', ['view', 'docs', 'pricing', 'purchase']),
  ...person('u5', ['view', 'blog', 'blog', 'view']),
  ...person('u6', ['view', 'blog']),
  ...person('u7', ['view', 'pricing', 'blog']),
  ...person('u8', ['view', 'docs', 'pp.click']),
]);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

/** The candidates table as drawn. */
function rowsOnPage(p: Page): Promise<string[][]> {
  return p
    .getByTestId('correlations-table')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
}

const fixed = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);
const prob = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));

t.test('from a funnel to what goes with its last step, as the API answers it', async (t) => {
  await openFromNavigation(page, 'Funnels');
  await page.getByLabel('Step 1', { exact: true }).selectOption('view');
  await chooseWithKeyboard(page, page.getByLabel('Step 2', { exact: true }), 'purchase');
  await page.getByRole('button', { name: '7 days' }).click();
  await addressBuilt(page, 'the funnel built', (q) => q.get('steps') === 'view~purchase' && q.get('range') === 'last_7_days');
  await page.getByTestId('funnel-correlations').click();
  await eventually(
    'the correlations view',
    async () => new URL(page.url()).pathname,
    (p) => p.endsWith('/insights/correlations'),
  );
  t.equal(new URL(page.url()).searchParams.get('target'), 'purchase', 'the last step is the conversion');
  await page.getByTestId('correlations-warning').waitFor();
  const expected = await askQuery(server, token, project.id, 'correlations', { target_event: 'purchase', date_from: from, date_to: today, min_n: 5, exclude_managed: true });
  t.equal(await page.getByTestId('correlations-warning').textContent(), expected.warning, 'the warning, in view');
  t.match(await page.getByTestId('correlations-population').textContent(), `${expected.converters} of ${expected.actors} people converted`);
  t.same(
    expected.candidates.map((c: any) => c.event),
    ['view'],
    'at the default of 5 people only view qualifies: everyone did it',
  );
  t.same(await rowsOnPage(page), [
    [
      'view',
      '8',
      '50.0%',
      '—',
      '1.00',
      `${fixed(expected.candidates[0].odds_ratio)} (${fixed(expected.candidates[0].odds_ratio_low)}–${fixed(expected.candidates[0].odds_ratio_high)})`,
      prob(expected.candidates[0].q_value),
    ],
  ]);

  await page.getByLabel('At least this many people').fill('2');
  await page.getByLabel('At least this many people').press('Enter');
  const two = await askQuery(server, token, project.id, 'correlations', { target_event: 'purchase', date_from: from, date_to: today, min_n: 2, exclude_managed: true });
  const expectedRows = two.candidates.map((c: any) => [
    c.event,
    String(c.actors),
    pct(c.conversion_with),
    pct(c.conversion_without),
    fixed(c.lift),
    `${fixed(c.odds_ratio)} (${fixed(c.odds_ratio_low)}–${fixed(c.odds_ratio_high)})`,
    prob(c.q_value),
  ]);
  t.same(
    await eventually(
      'the candidates',
      () => rowsOnPage(page),
      (rows) => JSON.stringify(rows) === JSON.stringify(expectedRows),
    ),
    expectedRows,
  );
  t.same(
    two.candidates.map((c: any) => [c.event, c.lift]),
    [
      ['docs', 1.5],
      ['pricing', 1.5],
      ['view', 1],
      ['blog', 0],
    ],
    'docs and pricing go with buying (ties by name); blog with not buying',
  );
  await checkAccessible(t, page, 'correlations');
  checkClean(t, tab);
});

t.test('opened from the navigation and built with the keyboard: the same candidates', async (t) => {
  await page.getByRole('link', { name: 'pp home' }).click();
  await tabTo(page, page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Correlations', exact: true }));
  await page.keyboard.press('Enter');
  await page.getByText('Choose the event that counts as converting').waitFor();
  await chooseWithKeyboard(page, page.getByLabel('Converted when they did'), 'purchase');
  await tabTo(page, page.getByRole('button', { name: '7 days' }));
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel('At least this many people'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await addressBuilt(page, 'the correlations built', (q) => q.get('target') === 'purchase' && q.get('range') === 'last_7_days' && q.get('min_n') === '3');
  const three = await askQuery(server, token, project.id, 'correlations', { target_event: 'purchase', date_from: from, date_to: today, min_n: 3, exclude_managed: true });
  const expectedRows = three.candidates.map((c: any) => [
    c.event,
    String(c.actors),
    pct(c.conversion_with),
    pct(c.conversion_without),
    fixed(c.lift),
    `${fixed(c.odds_ratio)} (${fixed(c.odds_ratio_low)}–${fixed(c.odds_ratio_high)})`,
    prob(c.q_value),
  ]);
  t.ok(expectedRows.length >= 2, `candidates seen by three people or more (${expectedRows.length})`);
  t.same(
    await eventually(
      'the candidates',
      () => rowsOnPage(page),
      (rows) => JSON.stringify(rows) === JSON.stringify(expectedRows),
    ),
    expectedRows,
  );
  checkClean(t, tab);
});

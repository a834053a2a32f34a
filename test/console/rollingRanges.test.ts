// Rolling date ranges in chromium against the real server, in a project on Sydney time (a day ahead
// of UTC for part of each day): a segmentation's dates chosen as a rolling rule with the controls
// (the mouse for some, the keyboard alone for others) go into the address as the rule, the date
// fields show its dates on the project's today, the drawn numbers are the API's answer for them;
// saving keeps the rule on the insight, whose page names it and answers over it; typing a date
// makes the range fixed again, and saving that back clears the rule.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { rollingDates } from '../../server/engine/rollingRange.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore as daysBeforeDate, openFromNavigation, signedInConsole, tabTo } from './consoleKit.js';

const ZONE = 'Australia/Sydney';
const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: ZONE });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
const daysBefore = (n: number) => daysBeforeDate(n, today);

// One page view a day for 100 days, two on every tenth day: totals differ between ranges.
await seedEvents(
  server,
  project.id,
  Array.from({ length: 100 }, (_, i) => {
    const ts = `${daysBefore(i)}T02:00:00Z`;
    const who = { anonymous_id: `v${i}`, session_id: `s${i}` };
    return [{ event: 'pp.page_view', ts, url: 'https://shop.example/', ...who }, ...(i % 10 === 0 ? [{ event: 'pp.page_view', ts, url: 'https://shop.example/pricing', ...who }] : [])];
  }).flat(),
);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const api = async (method: string, path: string, body?: unknown) => (await server.request(method, `/api/v1/projects/${project.id}${path}`, { token, body })).body;
const ask = (body: unknown) => askQuery(server, token, project.id, 'segmentation', body);
const total = (answer: any): number => answer.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0);
const drawnTotal = async () => {
  const cells = await page.getByTestId('segmentation-table').locator('tbody tr td:nth-child(2)').allTextContents();
  return cells.reduce((n, c) => n + Number(c.replace(/[^\d.-]/g, '')), 0);
};
const BODY = { event: 'pp.page_view', metric: 'events', interval: 'day' };

t.test('a rolling range chosen with the controls, saved, and made fixed again', async (t) => {
  await openFromNavigation(page, 'Segmentation');
  await page.getByLabel('Event').selectOption('pp.page_view');
  t.equal(await page.getByLabel('Range').inputValue(), 'last', 'the default is a rolling range: the last 30 days');
  t.equal(await page.getByLabel('How many').inputValue(), '30');

  // The keyboard alone: the list, then the count and the unit.
  await chooseWithKeyboard(page, page.getByLabel('Range'), 'Last N days, weeks or months');
  await tabTo(page, page.getByLabel('How many'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('2');
  await page.keyboard.press('Tab');
  await chooseWithKeyboard(page, page.getByLabel('Unit'), 'weeks');
  await addressBuilt(page, 'the rule in the address', (q) => q.get('range') === 'last_2_weeks' && !q.has('from') && !q.has('to'));
  const twoWeeks = rollingDates('last_2_weeks', today)!;
  t.same(twoWeeks, { date_from: daysBefore(13), date_to: today });
  t.equal(await page.getByLabel('From', { exact: true }).inputValue(), twoWeeks.date_from, 'its first day on the project’s today');
  t.equal(await page.getByLabel('To', { exact: true }).inputValue(), today);
  const expected = await ask({ ...BODY, ...twoWeeks });
  t.equal(await eventually('the two weeks drawn', drawnTotal, (n) => n === total(expected)), total(expected), 'the numbers are the API’s for those dates');

  // The mouse: a calendar period from the list.
  await page.getByLabel('Range').selectOption({ label: 'Last month' });
  await addressBuilt(page, 'last month in the address', (q) => q.get('range') === 'last_month');
  const lastMonth = rollingDates('last_month', today)!;
  t.equal(await page.getByLabel('From', { exact: true }).inputValue(), lastMonth.date_from);
  t.equal(await page.getByLabel('To', { exact: true }).inputValue(), lastMonth.date_to);
  t.equal(await page.getByLabel('How many').count(), 0, 'no count for a calendar period');

  // Since a date: the first field moves the start, the end is today.
  await page.getByLabel('Range').selectOption({ label: 'Since a date' });
  await page.getByLabel('Since', { exact: true }).fill(daysBefore(40));
  await addressBuilt(page, 'since in the address', (q) => q.get('range') === `since_${daysBefore(40)}`);
  t.ok(await page.getByLabel('To', { exact: true }).isDisabled(), 'the end is today');
  const since = await ask({ ...BODY, date_from: daysBefore(40), date_to: today });
  t.equal(await eventually('since drawn', drawnTotal, (n) => n === total(since)), total(since));

  // Back to the two weeks with a chip, and saved.
  await page.getByRole('button', { name: '7 days' }).click();
  await addressBuilt(page, 'the chip’s rule', (q) => q.get('range') === 'last_7_days');
  t.equal(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed'), 'true');
  await page.getByRole('button', { name: 'Save / Add to dashboard' }).click();
  const dialog = page.getByTestId('save-insight-dialog');
  await dialog.getByLabel('Name').fill('Weekly views');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByTestId('saved-note').waitFor();
  const saved = (await api('GET', '/insights')).items.find((i: { name: string }) => i.name === 'Weekly views');
  t.equal(saved.date_range, 'last_7_days', 'the insight keeps the rule');
  const week = rollingDates('last_7_days', today)!;
  t.match(saved.query, { ...BODY, ...week }, 'and its query today’s dates');

  // Its page names the rule and answers over it.
  await page.getByTestId('saved-note').getByRole('link', { name: 'Weekly views' }).click();
  await page.getByRole('heading', { name: 'Weekly views', level: 1 }).waitFor();
  t.equal(await page.getByTestId('insight-range').textContent(), `Last 7 days (${week.date_from} to ${week.date_to})`);
  t.equal(await page.getByLabel('Range').inputValue(), 'last');
  const result = (await server.request('POST', `/api/v1/projects/${project.id}/insights/${saved.id}/result`, { token })).body;
  t.equal(total(result), total(await ask({ ...BODY, ...week })), 'the insight answers over the rule’s dates');
  await page.getByTestId('insight-answer').getByTestId('segmentation-table').waitFor();
  t.equal(await drawnTotal(), total(result), 'as drawn');
  await checkAccessible(t, page, 'saved insight with a rolling range');

  // Opened on its insight page, the rule comes along; a typed date makes it fixed, saved back.
  await page.getByRole('link', { name: 'Open in Segmentation' }).click();
  await addressBuilt(page, 'the saved rule on the insight page', (q) => q.get('range') === 'last_7_days' && q.get('saved') === String(saved.id));
  await page.getByLabel('From', { exact: true }).fill(daysBefore(20));
  await addressBuilt(page, 'fixed dates', (q) => !q.has('range') && q.get('from') === daysBefore(20) && q.get('to') === today);
  t.equal(await page.getByLabel('Range').inputValue(), 'fixed', 'the list says fixed dates');
  await page.getByRole('button', { name: 'Save changes to “Weekly views”' }).click();
  await page.getByTestId('saved-note').waitFor();
  const fixed = await api('GET', `/insights/${saved.id}`);
  t.equal(fixed.date_range, null, 'the rule is gone');
  t.match(fixed.query, { date_from: daysBefore(20), date_to: today });
  checkClean(t, tab);
});

t.test('a dashboard kept on this month, seen by its name and dates', async (t) => {
  const board = await api('POST', '/dashboards', { name: 'Monthly' });
  const insight = (await api('GET', '/insights')).items[0];
  await api('POST', `/dashboards/${board.id}/tiles`, { insight_id: insight.id });
  await openFromNavigation(page, 'Dashboards');
  await page.getByTestId('dashboards').getByRole('link', { name: 'Monthly' }).click();
  await page.getByRole('heading', { name: 'Monthly', level: 1 }).waitFor();
  await chooseWithKeyboard(page, page.getByLabel('Range'), 'This month');
  const stored = await eventually(
    'the rule saved',
    async () => api('GET', `/dashboards/${board.id}`),
    (d) => d.date_range === 'this_month',
  );
  t.match(stored, { date_from: null, date_to: null });
  const month = rollingDates('this_month', today)!;
  t.equal(await page.getByLabel('From', { exact: true }).inputValue(), month.date_from);
  const expected = await ask({ ...BODY, ...month });
  const tile = await api('POST', `/dashboards/${board.id}/tiles/${stored.tiles[0].id}/result`);
  t.equal(total(tile), total(expected), 'the tile answers over this month');
  checkClean(t, tab);
});

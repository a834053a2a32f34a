// The activation drivers insight in chromium against the real server: the warning, the split and
// the people left out for being too recent are shown, and every driver's figures are the API's
// answer to the same question.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { idsIn } from '../oracles/activationDrivers.js';
import { addressBuilt, askQuery, checkAccessible, checkClean, chooseWithKeyboard, daysBefore, openFromNavigation, signedInConsole, tabTo, UTC_TODAY } from './consoleKit.js';

const DAY = 86_400_000;
const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;

const today = UTC_TODAY;

const events: SeedEvent[] = [];
/** One person: signs up on a day, invites `invites` times that day, and comes back in week 2 or not. */
function person(id: string, signup: string, invites: number, retained: boolean): void {
  const at = Date.parse(`${signup}T09:00:00Z`);
  events.push({ event: 'signup', ts: new Date(at).toISOString(), user_id: id });
  for (let i = 0; i < invites; i++) events.push({ event: 'invite', ts: new Date(at + (i + 1) * 3_600_000).toISOString(), user_id: id });
  if (retained) events.push({ event: 'report', ts: new Date(at + 8 * DAY).toISOString(), user_id: id });
}
idsIn(true, 16, 'd').forEach((id, i) => person(id, daysBefore(40), i < 8 ? 2 : 0, i < 8 || i < 10));
idsIn(false, 8, 'v').forEach((id, i) => person(id, daysBefore(39), i < 4 ? 2 : 0, i < 3 || i === 4));
person('recent', daysBefore(3), 2, false);
await seedEvents(server, project.id, events);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;
const fixed = (x: number | null) => (x === null ? '—' : x.toFixed(2));
const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

t.test('drivers as the API answers them, with the split and the warning', async (t) => {
  const from = daysBefore(59);
  await openFromNavigation(page, 'Activation drivers');
  await page.getByText('Choose the anchor event and the event that counts as retained').waitFor();
  await page.getByLabel('Starting with (anchor)').selectOption('signup');
  await chooseWithKeyboard(page, page.getByLabel('Retained if they did'), 'report');
  await tabTo(page, page.getByLabel('Until day'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('14');
  await page.keyboard.press('Enter');
  await addressBuilt(page, 'the drivers built', (q) => q.get('anchor') === 'signup' && q.get('outcome') === 'report' && q.get('to_day') === '14');
  await page.getByTestId('drivers-warning').waitFor();
  const expected = await askQuery(server, token, project.id, 'activation-drivers', { date_from: from, date_to: today, anchor_event: 'signup', outcome: { event: 'report', from_day: 7, to_day: 14 } });
  t.equal(await page.getByTestId('drivers-warning').textContent(), expected.warning);
  t.match(expected, { anchored: 25, eligible: 24, immature: 1 }, 'the recent signup is too recent to judge');
  t.match(await page.getByTestId('drivers-population').textContent(), `${expected.eligible} people whose outcome window had closed`);
  t.match(await page.getByTestId('drivers-population').textContent(), '1 more are too recent to judge');
  t.match(await page.getByTestId('drivers-split').textContent(), `on ${expected.split.discovery_actors} people (70%) and judged once on the other ${expected.split.validation_actors} (30%)`);
  const rows = await page
    .getByTestId('drivers-table')
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim())));
  const want = expected.drivers.map((x: any) => [
    `${x.event} ≥ ${x.threshold}× in ${x.window_days} ${x.window_days === 1 ? 'day' : 'days'}`,
    fixed(x.discovery.phi),
    `${fixed(x.validation.phi)} (${fixed(x.validation.phi_low)} to ${fixed(x.validation.phi_high)})`,
    pct(x.validation.retention_above),
    pct(x.validation.retention_below),
    String(x.validation.support),
    x.validated ? 'yes' : 'no',
    x.band + (x.direction === 'negative' ? ' (goes with leaving)' : ''),
  ]);
  t.same(rows, want, 'every driver as the API gives it');
  t.same(
    expected.drivers.map((x: any) => x.event),
    ['invite'],
  );
  await checkAccessible(t, page, 'activation drivers');
  checkClean(t, tab);
});

// The labeled-event pages in chromium against the real server, on hand-made clicks with element
// chains: an analyst creates a rule through the editor (the live count is the API's preview of
// the same conditions), sees it derived in the list (its count the API's), disables, enables and
// deletes it from there; a rule matching nothing is saved only after a confirmation, a taken event
// name is shown at its field, a viewer reads the list without actions, and the picker fills the
// editor from a capture posted to /v1/capture.

import t from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { createIngestKey } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, signedInConsole } from './consoleKit.js';

const now = new Date();
const server = await startTestServer(t, { settings: ROOMY_LIMITS, now });
const { owner, org, project } = await createTenant(server, { timezone: 'UTC' });
const ownerToken = (await login(server, owner.email, TEST_PASSWORD)).token!;
// Element texts are kept in the standard privacy mode only.
await server.request('PATCH', `/api/v1/projects/${project.id}/behavior/settings`, { token: ownerToken, body: { privacy_mode: 'standard' } });
const analyst = await addMember(server, org, 'analyst');
const analystToken = (await login(server, analyst.email, TEST_PASSWORD)).token!;

const base = `/projects/${project.id}/labeled-events`;
const PRICING = 'https://shop.example/pricing';
const HOME = 'https://shop.example/';
const daysAgo = (days: number, minute: number) => new Date(now.getTime() - days * 86_400_000 - minute * 60_000).toISOString();

const TRIAL = { tag: 'button', id: 'start-trial', classes: ['cta'], nth_child: 2, attributes: { 'data-pp-name': 'trial' } };
const HERO = { tag: 'div', classes: ['hero'], nth_child: 1 };
const BODY = { tag: 'body', nth_child: 2 };
const click = (days: number, minute: number, who: string, url: string, elements: Record<string, unknown>[]): SeedEvent => ({
  event: 'pp.click',
  ts: daysAgo(days, minute),
  anonymous_id: who,
  session_id: `s-${who}`,
  url,
  elements,
});

await seedEvents(server, project.id, [
  // The Start trial button on the pricing page: four clicks on it, two on the label inside it.
  ...[0, 1, 2, 3].map((i) => click(2, i, `a${i}`, PRICING, [{ ...TRIAL, text: 'Start trial' }, HERO, BODY])),
  ...[0, 1].map((i) => click(2, 10 + i, `b${i}`, PRICING, [{ tag: 'span', nth_child: 1, text: 'Start trial' }, TRIAL, HERO, BODY])),
  // The same button 40 days ago: outside the preview's 30 days, but derived over all history.
  ...[0, 1].map((i) => click(40, i, `c${i}`, PRICING, [{ ...TRIAL, text: 'Start trial' }, HERO, BODY])),
  // The button on another page, and other clicks on the pricing page.
  click(2, 20, 'd0', HOME, [{ ...TRIAL, text: 'Start trial' }, BODY]),
  ...[0, 1, 2].map((i) => click(2, 30 + i, `e${i}`, PRICING, [{ tag: 'a', classes: ['nav'], nth_child: 3, text: 'Docs' }, { tag: 'nav', nth_child: 1 }, BODY])),
  ...[0, 1, 2].map((i): SeedEvent => ({ event: 'pp.page_view', ts: daysAgo(2, 40 + i), anonymous_id: `p${i}`, url: PRICING })),
]);

/** A labeled-events operation of the project, as `token`. */
const rulesApi = (method: string, path: string, token = analystToken, body?: unknown) => server.request(method, `/api/v1/projects/${project.id}/labeled-events${path}`, { token, body });

async function previewCount(body: Record<string, unknown>): Promise<number> {
  const res = await rulesApi('POST', '/preview', analystToken, body);
  if (res.status !== 200) throw new Error(`preview: ${res.status} ${res.text}`);
  return res.body.count;
}

async function ruleNamed(name: string): Promise<any> {
  const list = await rulesApi('GET', '');
  return list.body.items.find((r: any) => r.event_name === name);
}

/** The count the editor shows once its preview has answered, as a number. */
const shownCount = (p: Page) =>
  eventually(
    'the preview',
    async () => ({ state: await p.getByTestId('preview').getAttribute('data-state'), count: await p.getByTestId('preview').getAttribute('data-count') }),
    (s) => s.state === 'ready',
  ).then((s) => Number(s.count));

/** What a row of the list says of a rule: its first cells, state and derivation, read at once (the row may leave meanwhile). */
async function rowOf(p: Page, name: string) {
  const rows = await p.locator(`tr[data-event-name="${name}"]`).evaluateAll((trs) =>
    trs.map((row) => {
      const m = row.querySelector('[data-testid=materialization]');
      return {
        cells: [...row.querySelectorAll('th, td')].slice(0, 3).map((c) => (c.textContent ?? '').trim()),
        state: row.querySelector('[data-testid=rule-state]')?.getAttribute('data-state') ?? null,
        job: m?.getAttribute('data-state') ?? null,
        derived: m?.getAttribute('data-derived-events') ?? null,
      };
    }),
  );
  return rows[0];
}

/** Waits until the list shows the rule in `state` with a finished derivation, and returns the row. */
const settledRow = (p: Page, name: string, state: string) =>
  eventually(
    `${name} ${state} and derived`,
    () => rowOf(p, name),
    (r) => r?.state === state && r.job === 'succeeded',
    30_000,
  ).then((r) => r!);

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, analyst.email, TEST_PASSWORD);
const { page } = tab;

t.test('the empty list explains rules and leads to a new one', async (t) => {
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Labeled events' }).click();
  await page.getByText('No labeled events yet').waitFor();
  t.equal(new URL(page.url()).pathname, base);
  t.match(await page.locator('.state.empty').textContent(), 'turns autocaptured clicks, form submits or page views into a named event');
  t.equal(await page.locator('.state.empty').getByRole('link', { name: 'New rule' }).getAttribute('href'), `${base}/new`);
  await checkAccessible(t, page, 'empty rules list');
  checkClean(t, tab);
});

t.test('an analyst creates a rule in the editor: the live count is the API preview, the list shows its derivation', async (t) => {
  await page.goto(base);
  await page.locator('.state.empty').getByRole('link', { name: 'New rule' }).click();
  await page.getByRole('heading', { name: 'New labeled event' }).waitFor();
  t.equal(await page.getByLabel('Base event').inputValue(), 'pp.click', 'clicks by default');

  const selectorOnly = { base_event: 'pp.click', selector: 'button#start-trial' };
  await page.getByLabel('Selector', { exact: true }).fill(selectorOnly.selector);
  const all = await previewCount(selectorOnly);
  t.equal(all, 7, 'the button and the label inside it, on both pages, in the last 30 days');
  t.equal(
    await eventually(
      'the selector count',
      () => shownCount(page),
      (n) => n === all,
    ),
    all,
    'the count is the API preview of the same conditions',
  );
  t.equal(await page.getByTestId('preview').textContent(), `${all} matching events in the last 30 days`);

  const full = { ...selectorOnly, url_pattern: '/pricing', attributes: [{ name: 'data-pp-name', op: 'eq', value: 'trial' }] };
  await page.getByLabel('URL pattern').fill(full.url_pattern);
  await page.getByRole('button', { name: 'Add an attribute condition' }).click();
  await eventually(
    'the incomplete row',
    () => page.getByTestId('preview').getAttribute('data-state'),
    (state) => state === 'incomplete',
  );
  t.equal(await page.getByTestId('preview').textContent(), 'Complete the attribute conditions to count the matching events.', 'an empty attribute row is not counted');
  await page.getByLabel('Attribute 1', { exact: true }).fill('data-pp-name');
  await page.getByLabel('Attribute 1 value').fill('trial');
  const onPricing = await previewCount(full);
  t.equal(onPricing, 6, 'the pricing page only');
  t.equal(
    await eventually(
      'the narrowed count',
      () => shownCount(page),
      (n) => n === onPricing,
    ),
    onPricing,
    'the count follows the conditions',
  );

  await page.getByLabel('Attribute 1 comparison').selectOption('exists');
  t.equal(await page.getByLabel('Attribute 1 value').count(), 0, 'no value for "is present"');
  await page.getByLabel('Attribute 1 comparison').selectOption('eq');
  await page.getByLabel('Attribute 1 value').fill('trial');
  await page.getByLabel('Base event').selectOption('pp.page_view');
  t.equal(await page.getByLabel('Selector', { exact: true }).count(), 0, 'a page view has no selector');
  t.equal(await page.getByLabel('Element text').count(), 0, 'nor text');
  t.equal(await page.getByRole('group', { name: 'Attribute conditions' }).count(), 0, 'nor attributes');
  const views = await previewCount({ base_event: 'pp.page_view', url_pattern: '/pricing' });
  t.equal(
    await eventually(
      'the page view count',
      () => shownCount(page),
      (n) => n === views,
    ),
    views,
    'page views counted by their page alone',
  );
  await page.getByLabel('Base event').selectOption('pp.click');
  t.equal(await page.getByLabel('Selector', { exact: true }).inputValue(), full.selector, 'the conditions come back');
  t.equal(
    await eventually(
      'the count again',
      () => shownCount(page),
      (n) => n === onPricing,
    ),
    onPricing,
  );

  await page.getByLabel('Event name', { exact: true }).fill('start_trial');
  await page.getByLabel('Display name').fill('Start trial');
  await page.getByLabel('Description').fill('Clicks on the pricing page’s Start trial button');
  await checkAccessible(t, page, 'rule editor');
  await page.getByRole('button', { name: 'Create the rule' }).click();
  await page.waitForURL((u) => u.pathname === base);

  const created = await ruleNamed('start_trial');
  t.match(created, { ...full, event_name: 'start_trial', display_name: 'Start trial', state: 'active' }, 'stored as edited');
  const row = await settledRow(page, 'start_trial', 'active');
  const stored = (await rulesApi('GET', `/${created.id}`)).body;
  t.equal(stored.materialization.state, 'succeeded');
  t.equal(row.derived, String(stored.labeled_events), 'the derived count is the API’s');
  t.equal(stored.labeled_events, 8, 'the six of the last 30 days and the two before');
  t.equal(stored.materialization.derived_events, 8, 'all labeled by the derivation over history');
  t.same(row.cells, ['start_trial', 'Start trial', 'pp.click'], 'name, display name and base event');
  t.equal(await page.locator('tr[data-event-name="start_trial"] [data-testid=derived-events]').textContent(), '8');
  await checkAccessible(t, page, 'rules list');
  checkClean(t, tab);
});

t.test('disable and enable from the list', async (t) => {
  await page.goto(base);
  await page.getByRole('button', { name: 'Disable start_trial' }).click();
  const disabled = await settledRow(page, 'start_trial', 'disabled');
  const afterDisable = await ruleNamed('start_trial');
  t.equal(afterDisable.state, 'disabled');
  t.equal(disabled.derived, String(afterDisable.labeled_events), 'the teardown’s count is the API’s');
  t.equal(await page.getByRole('button', { name: 'Disable start_trial' }).count(), 0, 'a disabled rule is not offered disabling');

  await page.getByRole('button', { name: 'Enable start_trial' }).click();
  const enabled = await settledRow(page, 'start_trial', 'active');
  const afterEnable = await ruleNamed('start_trial');
  t.equal(afterEnable.state, 'active');
  t.equal(enabled.derived, String(afterEnable.labeled_events));
  t.equal(afterEnable.labeled_events, 8, 'derived again over all history');
  checkClean(t, tab);
});

t.test('a rule opens from the list for editing', async (t) => {
  await page.goto(base);
  await page.getByTestId('labeled-rules').getByRole('link', { name: 'start_trial' }).click();
  await page.getByRole('heading', { name: 'Labeled event start_trial' }).waitFor();
  const before = await ruleNamed('start_trial');
  t.equal(await page.getByLabel('Selector', { exact: true }).inputValue(), before.selector, 'the stored conditions');
  t.equal(await page.getByLabel('URL pattern').inputValue(), before.url_pattern);
  t.equal(await page.getByLabel('Attribute 1 value').inputValue(), 'trial');
  t.equal(await page.getByLabel('Display name').inputValue(), before.display_name);
  await page.getByLabel('Display name').fill('Trial started');
  await page.getByLabel('Description').fill('');
  await page.getByRole('button', { name: 'Save the rule' }).click();
  await page.waitForURL((u) => u.pathname === base);
  const after = await ruleNamed('start_trial');
  t.match(
    after,
    { display_name: 'Trial started', description: null, selector: before.selector, url_pattern: before.url_pattern, attributes: before.attributes },
    'replaced: the display name changed, the emptied description gone, the conditions kept',
  );
  const row = await settledRow(page, 'start_trial', 'active');
  t.same(row.cells, ['start_trial', 'Trial started', 'pp.click']);
  t.equal(row.derived, String(after.labeled_events));
  checkClean(t, tab);
});

t.test('a taken event name is refused at its field', async (t) => {
  await page.goto(`${base}/new`);
  await page.getByLabel('Selector', { exact: true }).fill('a.nav');
  await page.getByLabel('Event name', { exact: true }).fill('start_trial');
  const nav = await previewCount({ base_event: 'pp.click', selector: 'a.nav' });
  t.equal(nav, 3);
  t.equal(
    await eventually(
      'the nav count',
      () => shownCount(page),
      (n) => n === nav,
    ),
    nav,
  );
  await page.getByRole('button', { name: 'Create the rule' }).click();
  const refused = await rulesApi('POST', '', analystToken, { base_event: 'pp.click', selector: 'a.nav', event_name: 'start_trial' });
  t.equal(refused.status, 409);
  const name = page.getByLabel('Event name', { exact: true });
  await eventually(
    'the field marked',
    () => name.getAttribute('aria-invalid'),
    (v) => v === 'true',
  );
  const problemId = (await name.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-problem'))!;
  t.equal(await page.locator(`[id="${problemId}"]`).textContent(), refused.body.error.message, 'the server’s message, under the event name');
  t.equal(new URL(page.url()).pathname, `${base}/new`, 'still editing');
  t.equal((await rulesApi('GET', '')).body.items.length, 1, 'nothing stored');
  checkClean(t, tab);
});

t.test('every field a refusal names is marked', async (t) => {
  await page.goto(`${base}/new`);
  await page.getByLabel('Selector', { exact: true }).fill('a, b');
  await page.getByRole('button', { name: 'Add an attribute condition' }).click();
  await page.getByLabel('Attribute 1', { exact: true }).fill('data-pp-name');
  await page.getByLabel('Event name', { exact: true }).fill('two_problems');
  await page.getByRole('button', { name: 'Create the rule' }).click();
  const refused = await rulesApi('POST', '/preview', analystToken, { base_event: 'pp.click', selector: 'a, b', attributes: [{ name: 'data-pp-name', op: 'eq', value: '' }] });
  t.equal(refused.status, 422);
  const messages = Object.fromEntries(refused.body.error.details.errors.map((e: any) => [e.field, e.message]));
  t.same(Object.keys(messages), ['selector', 'attributes[0].value'], 'the API names both');
  const selector = page.getByLabel('Selector', { exact: true });
  await eventually(
    'the selector marked',
    () => selector.getAttribute('aria-invalid'),
    (v) => v === 'true',
  );
  const selectorProblem = (await selector.getAttribute('aria-describedby'))!.split(' ').find((id) => id.endsWith('-problem'))!;
  t.equal(await page.locator(`[id="${selectorProblem}"]`).textContent(), messages.selector, 'the selector’s problem under it');
  const value = page.getByLabel('Attribute 1 value');
  t.equal(await value.getAttribute('aria-invalid'), 'true');
  t.equal(await page.locator(`[id="${await value.getAttribute('aria-describedby')}"]`).textContent(), messages['attributes[0].value'], 'the row’s problem under the row');
  t.equal(await ruleNamed('two_problems'), undefined, 'nothing stored');
  checkClean(t, tab);
});

t.test('saving a rule that matches nothing asks first', async (t) => {
  await page.goto(`${base}/new`);
  await page.getByLabel('Selector', { exact: true }).fill('button#nothing-here');
  await page.getByLabel('Event name', { exact: true }).fill('nothing_yet');
  t.equal(await previewCount({ base_event: 'pp.click', selector: 'button#nothing-here' }), 0);
  t.equal(
    await eventually(
      'a zero count',
      () => shownCount(page),
      (n) => n === 0,
    ),
    0,
  );
  t.equal(await page.getByTestId('preview').textContent(), '0 matching events in the last 30 days');

  await page.getByRole('button', { name: 'Create the rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'This rule matches no event of the last 30 days. Save anyway?' });
  await dialog.waitFor();
  await checkAccessible(t, page, 'zero-match confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.equal(await ruleNamed('nothing_yet'), undefined, 'cancelled: nothing stored');
  t.equal(new URL(page.url()).pathname, `${base}/new`, 'still editing');

  await page.getByRole('button', { name: 'Create the rule' }).click();
  await dialog.getByRole('button', { name: 'Save anyway' }).click();
  await page.waitForURL((u) => u.pathname === base);
  t.match(await ruleNamed('nothing_yet'), { selector: 'button#nothing-here', state: 'active' }, 'saved once confirmed');
  const row = await settledRow(page, 'nothing_yet', 'active');
  t.equal(row.derived, '0');
  const names = await page
    .getByTestId('labeled-rules')
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-event-name')));
  t.same(
    names,
    (await rulesApi('GET', '')).body.items.map((r: any) => r.event_name),
    'in the API’s order, by event name',
  );
  checkClean(t, tab);
});

t.test('a viewer reads the rules without actions', async (t) => {
  const viewer = await addMember(server, org, 'viewer');
  const other = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  await other.page.goto(base);
  await other.page.getByTestId('labeled-rules').waitFor();
  const rows = await other.page.getByTestId('labeled-rules').locator('tbody tr').count();
  t.equal(rows, 2, 'both rules');
  t.equal(
    await other.page
      .getByRole('button')
      .filter({ hasText: /^(Disable|Enable|Delete)$/ })
      .count(),
    0,
    'no disable, enable or delete',
  );
  t.equal(await other.page.getByRole('link', { name: 'New rule' }).count(), 0, 'no new rule');
  t.equal(await other.page.getByTestId('labeled-rules').getByRole('link').count(), 0, 'rules do not open the editor');
  await checkAccessible(t, other.page, 'rules list for a viewer');
  await other.page.goto(`${base}/new`);
  await other.page.getByText('Only analysts, admins and owners change labeled-event rules').waitFor();
  t.equal(await other.page.getByLabel('Selector', { exact: true }).count(), 0, 'no editor');
  checkClean(t, other);
});

t.test('the picker: the site opens with the token, and a capture fills the editor', async (t) => {
  const key = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
  await tab.context.route('https://shop.example/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>Shop</title><p>Pricing</p></html>' }));
  await page.goto(`${base}/new`);
  await page.getByLabel("Your site's address").fill('https://shop.example/pricing?plan=pro');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Pick an element' }).click();
  const site = await popup;
  await site.waitForURL(/pp_picker_token=/);
  const opened = new URL(site.url());
  t.same([opened.origin + opened.pathname, opened.searchParams.get('plan')], [PRICING, 'pro'], 'the site as entered');
  const token = opened.searchParams.get('pp_picker_token')!;
  const nonce = opened.searchParams.get('pp_picker_nonce')!;
  t.ok(token && nonce, 'token and nonce in the address');
  await page.getByTestId('picker-waiting').waitFor();
  const waiting = await rulesApi('GET', `/picker/captures?token=${encodeURIComponent(token)}`);
  t.match(waiting.body, { ready: false }, 'nothing captured yet');
  await checkAccessible(t, page, 'editor waiting for a pick');

  const element = { tag: 'button', id: 'start-trial', classes: ['cta'], nth_child: 2, text: 'Start trial', attributes: { 'data-pp-name': 'trial' } };
  const captured = await server.request('POST', '/v1/capture', {
    token: key.value,
    headers: { origin: 'https://shop.example' },
    body: { picker_token: token, nonce, url: 'https://shop.example/pricing?plan=pro', selector: 'body > div.hero > button#start-trial', element, chain: [element, HERO, BODY] },
  });
  t.equal(captured.status, 202, 'the capture is taken');
  await page.getByTestId('picked-element').waitFor({ timeout: 15_000 });
  const answer = (await rulesApi('GET', `/picker/captures?token=${encodeURIComponent(token)}`)).body;
  t.equal(answer.ready, true);
  t.equal(await page.getByLabel('Selector', { exact: true }).inputValue(), answer.selector, 'the selector filled in from the capture');
  t.equal(await page.getByLabel('URL pattern').inputValue(), answer.url_pattern, 'the page too');
  t.equal(await page.getByLabel('Element text').inputValue(), answer.text, 'and, for a click, the text');
  t.same(
    [
      await page.getByTestId('picked-tag').textContent(),
      await page.getByTestId('picked-id').textContent(),
      await page.getByTestId('picked-classes').textContent(),
      await page.getByTestId('picked-text').textContent(),
    ],
    [answer.element.tag, answer.element.id, answer.element.classes.join(' '), answer.text],
    'the picked element shown for confirmation',
  );
  const pickedCount = await previewCount({ base_event: 'pp.click', selector: answer.selector, url_pattern: answer.url_pattern, match_text: answer.text });
  t.equal(
    await eventually(
      'the picked count',
      () => shownCount(page),
      (n) => n === pickedCount,
    ),
    pickedCount,
    'counted like any conditions',
  );
  await checkAccessible(t, page, 'editor with a picked element');

  await page.reload();
  t.equal(await page.getByLabel("Your site's address").inputValue(), 'https://shop.example/pricing?plan=pro', 'the site is remembered for the project');
  await site.close();
  checkClean(t, tab);
});

t.test('deleting a rule asks first, then the rule leaves the list', async (t) => {
  await page.goto(base);
  await settledRow(page, 'start_trial', 'active');
  const rule = await ruleNamed('start_trial');
  await page.getByRole('button', { name: 'Delete start_trial' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the rule start_trial?' });
  await dialog.waitFor();
  t.match(await dialog.textContent(), `Its derived events (${rule.labeled_events} now) are removed from every report`);
  await checkAccessible(t, page, 'delete confirmation');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  t.equal((await ruleNamed('start_trial')).state, 'active', 'cancelled: kept');

  await page.getByRole('button', { name: 'Delete start_trial' }).click();
  await dialog.getByRole('button', { name: 'Delete the rule' }).click();
  await eventually(
    'the row to go',
    () => rowOf(page, 'start_trial'),
    (r) => r === undefined,
    30_000,
  );
  t.equal((await rulesApi('GET', `/${rule.id}`)).status, 404, 'the rule is gone');
  t.same(
    (await rulesApi('GET', '')).body.items.map((r: any) => r.event_name),
    ['nothing_yet'],
    'the other rule stays',
  );
  t.equal(await page.getByTestId('labeled-rules').locator('tbody tr').count(), 1, 'as the list shows');
  checkClean(t, tab);
});

t.test('a picking session that expires unpicked offers to try again', async (t) => {
  await page.goto(`${base}/new`);
  t.equal(await page.getByLabel("Your site's address").inputValue(), 'https://shop.example/pricing?plan=pro');
  const popup = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Pick an element' }).click();
  const site = await popup;
  await page.getByTestId('picker-waiting').waitFor();
  // The token lives ten minutes on the server's clock.
  server.clock.advance(11 * 60_000);
  const expired = page.getByTestId('picker-expired');
  await expired.waitFor({ timeout: 15_000 });
  t.match(await expired.textContent(), 'The picking session expired before an element was picked.');
  t.equal(await expired.getByRole('button', { name: 'Try again' }).count(), 1, 'with a retry');
  await checkAccessible(t, page, 'expired picking session');
  await site.close();
  checkClean(t, tab);
});

t.test('where the picker is turned off, the editor says so', async (t) => {
  const off = await startTestServer(t, { settings: { ...ROOMY_LIMITS, picker_enabled: false }, now });
  const tenant = await createTenant(off);
  const member = await addMember(off, tenant.org, 'analyst');
  const offTab = await signedInConsole(t, browser, off, member.email, TEST_PASSWORD);
  await offTab.page.goto(`/projects/${tenant.project.id}/labeled-events/new`);
  await offTab.page.getByLabel("Your site's address").fill('https://shop.example/');
  await offTab.page.getByRole('button', { name: 'Pick an element' }).click();
  await offTab.page.getByTestId('picker-off').waitFor();
  t.match(await offTab.page.getByTestId('picker-off').textContent(), 'The element picker is turned off on this installation');
  const answer = await off.request('POST', `/api/v1/projects/${tenant.project.id}/labeled-events/picker-token`, { token: (await login(off, member.email, TEST_PASSWORD)).token });
  t.equal(answer.status, 501, 'as the API answers');
  checkClean(t, offTab);
});

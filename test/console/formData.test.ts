// The forms list and the deletion of form data in chromium against the real server, on hand-made
// form events of three forms, one with a selector and an address far wider than a column: at
// 1280 px the table stays inside its own box with nothing sticking out of a column, and a narrower
// window scrolls that box, never the page; deleting all form data sits in the project settings,
// not on the forms page, asks for the project's name, and its job, followed to success, agrees
// with the API; a viewer is not offered it.

import t from 'tap';
import type { Locator, Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { addMember, createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, daysBefore, openFromNavigation, signedInConsole, UTC_TODAY } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, org, project } = await createTenant(server, { timezone: 'UTC' });
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const day = daysBefore(1);
const RANGE = { date_from: daysBefore(29), date_to: UTC_TODAY };

const LONG_URL = `https://shop.example/${'checkout/'.repeat(12)}payment?step=billing-address-and-delivery-options`;
const LONG_FORM = `form#${'checkout-'.repeat(10)}payment > fieldset.billing-address-and-delivery-options`;
const FORMS: Array<[string, string]> = [
  [LONG_FORM, LONG_URL],
  ['form#signup', 'https://shop.example/signup'],
  ['form#contact', 'https://shop.example/contact'],
];

const at = (minute: number) => `${day}T11:${String(minute).padStart(2, '0')}:00Z`;
const ev = (event: string, minute: number, who: string, url: string, props: Record<string, unknown> = {}): SeedEvent => ({
  event,
  ts: at(minute),
  anonymous_id: who,
  session_id: `s-${who}`,
  url,
  props,
});
const email = { field: 'input[name="email"]', tag: 'input', type: 'email', time_ms: 1500, focus_count: 1, changed: true, corrections: 0, to_change_ms: 400 };

// Each form: one visit views it and starts it; the first and last are submitted, the middle one
// abandoned at its email field.
await seedEvents(
  server,
  project.id,
  FORMS.flatMap(([form, url], i) => [
    ev('pp.page_view', 10 * i, `v${i}`, url),
    ev('pp.form_start', 10 * i + 1, `v${i}`, url, { form, field: email.field, since_load_ms: 1200 }),
    i === 1
      ? ev('pp.form_abandon', 10 * i + 2, `v${i}`, url, { form, duration_ms: 3000, since_load_ms: 1200, last_field: email.field, fields: [email] })
      : ev('pp.form_submit', 10 * i + 2, `v${i}`, url, { form, duration_ms: 3000, since_load_ms: 1200, last_field: email.field, blank_fields: [], fields: [email] }),
  ]),
);
/** A start and a submit or an abandon of each form. */
const FORM_EVENTS = 2 * FORMS.length;

async function formsOfApi(): Promise<any[]> {
  const res = await server.request('GET', `/api/v1/projects/${project.id}/forms?${new URLSearchParams(RANGE)}`, { token });
  if (res.status !== 200) throw new Error(`forms: ${res.status} ${res.text}`);
  return res.body.items;
}

/** How the forms table sits in the window: its box, the page, and any cell its content overflows. */
function tableFit(box: Locator): Promise<{ pageScrolls: boolean; boxInsideMain: boolean; boxScrollsX: boolean; overflowX: string; tableWiderThanBox: boolean; overflowingCells: string[] }> {
  // The test's TypeScript has no DOM types: the page's elements are reached untyped.
  return box.evaluate((el: any) => {
    const win = el.ownerDocument.defaultView;
    const main = el.closest('main').getBoundingClientRect();
    const table = el.querySelector('table');
    const cells: any[] = [...table.querySelectorAll('th, td')];
    return {
      pageScrolls: el.ownerDocument.documentElement.scrollWidth > win.innerWidth,
      boxInsideMain: el.getBoundingClientRect().right <= main.right + 0.5,
      boxScrollsX: el.scrollWidth > el.clientWidth,
      overflowX: win.getComputedStyle(el).overflowX,
      tableWiderThanBox: table.getBoundingClientRect().width > el.clientWidth + 0.5,
      overflowingCells: cells.filter((c) => c.scrollWidth > c.clientWidth + 0.5).map((c) => (c.textContent ?? '').trim()),
    };
  });
}

const browser = await launchChromium();
t.teardown(() => browser.close());

t.test('at 1280 px the forms table fits its own box; a narrower window scrolls the box, not the page', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Forms');
  const table = page.getByTestId('behavior-forms');
  await table.waitFor();
  t.same(
    await table.locator('tbody th').allTextContents(),
    (await formsOfApi()).map((f) => f.form),
    'the three forms, as the API lists them',
  );
  const box = table.locator('xpath=..');
  const wide = await tableFit(box);
  t.same(
    wide,
    { pageScrolls: false, boxInsideMain: true, boxScrollsX: false, overflowX: 'auto', tableWiderThanBox: false, overflowingCells: [] },
    '1280 px: every column inside the box, nothing sticking out of a cell',
  );

  await page.setViewportSize({ width: 900, height: 860 });
  const narrow = await tableFit(box);
  t.match(narrow, { pageScrolls: false, boxInsideMain: true, boxScrollsX: true, overflowingCells: [] }, '900 px: the box scrolls sideways, the page does not');
  await box.evaluate((el: any) => (el.scrollLeft = el.scrollWidth));
  t.ok(await box.evaluate((el: any) => el.scrollLeft > 0), 'and the box can be scrolled');
  await page.setViewportSize({ width: 1280, height: 860 });
  await checkAccessible(t, page, 'forms list');
  checkClean(t, tab);
});

t.test('a viewer is offered no deletion, on the forms page or in the settings', async (t) => {
  const viewer = await addMember(server, org, 'viewer');
  const tab = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Forms');
  await page.getByTestId('behavior-forms').waitFor();
  t.equal(await page.getByRole('link', { name: 'project settings', exact: true }).count(), 0, 'not pointed to a deletion it may not make');
  await openFromNavigation(page, 'Project settings');
  await page.getByRole('heading', { name: 'What this project collects' }).waitFor();
  t.equal(await page.getByRole('heading', { name: 'Form data' }).count(), 0, 'no form data section');
  t.equal(await page.getByRole('button', { name: 'Delete all form data' }).count(), 0, 'no deletion button');
  t.equal(await page.getByTestId('purge-jobs').count(), 0, 'no purge jobs');
  checkClean(t, tab);
});

t.test('an admin deletes all form data from the project settings: confirmation, the job followed to success', async (t) => {
  const admin = await addMember(server, org, 'admin');
  const tab = await signedInConsole(t, browser, server, admin.email, TEST_PASSWORD);
  const p: Page = tab.page;
  await openFromNavigation(p, 'Forms');
  await p.getByTestId('behavior-forms').waitFor();
  t.equal(await p.getByRole('button', { name: 'Delete all form data' }).count(), 0, 'no longer on the forms page');
  await p.getByRole('link', { name: 'project settings', exact: true }).click();
  await p.getByRole('heading', { name: 'Project settings', level: 1 }).waitFor();
  const section = p.getByRole('region', { name: 'Form data', exact: true });
  await section.waitFor();
  t.match(await section.getAttribute('class'), /danger-zone/, 'a danger section');
  t.match(await section.locator('#purge-title ~ p.muted').textContent(), 'never deleted', 'no purge yet');

  await section.getByRole('button', { name: 'Delete all form data' }).click();
  const dialog = p.getByRole('dialog', { name: `Delete all form data of ${project.name}?` });
  await dialog.waitFor();
  const confirm = dialog.getByRole('button', { name: 'Delete all form data' });
  const typed = dialog.getByLabel(`Type the project name (${project.name}) to confirm`);
  t.ok(await confirm.isDisabled(), 'not before the name is typed');
  await typed.fill(project.name.slice(0, -1));
  t.ok(await confirm.isDisabled(), 'nor with a wrong name');
  await checkAccessible(t, p, 'purge dialog');
  await typed.fill(project.name);
  await confirm.click();

  const status = section.getByTestId('purge-status');
  await eventually(
    'the job to end',
    () => status.getAttribute('data-state').catch(() => null),
    (s) => s === 'succeeded' || s === 'failed',
    30_000,
  );
  const jobs = (await server.request('GET', `/api/v1/projects/${project.id}/behavior/forms/purge`, { token })).body.items;
  t.equal(jobs.length, 1, 'one job');
  t.match(jobs[0], { state: 'succeeded', requested_by: admin.id, deleted_events: FORM_EVENTS }, 'every form start, submit and abandon');
  t.equal(await status.textContent(), `Form data deleted: ${jobs[0].deleted_events} form events.`, 'the job is shown with what it deleted');
  t.same(
    await eventually(
      'the jobs table',
      () =>
        section
          .getByTestId('purge-jobs')
          .locator('tbody tr')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state'))),
      (s) => s.length === 1,
    ),
    ['succeeded'],
  );
  t.same(await formsOfApi(), [], 'the API has no form left');
  await checkAccessible(t, p, 'project settings after the purge');

  await openFromNavigation(p, 'Forms');
  await p.getByText(/^No form was started from/).waitFor();
  t.pass('the forms list is empty');
  checkClean(t, tab);
});

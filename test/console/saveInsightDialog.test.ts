// The save dialog of an insight page in chromium: it opens with the proposed name selected, so typing
// replaces it (the API keeps the typed name), and the focus goes back to the button that opened it
// after saving, after Cancel and after Escape, never to the page's body.

import t from 'tap';
import type { Locator } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { checkAccessible, checkClean, signedInConsole, tabTo } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server);
const token = (await login(server, owner.email, TEST_PASSWORD)).token!;
const browser = await launchChromium();
t.teardown(() => browser.close());
// Signed in, the console opens on the project's activity summary, an insight page named "Activity".
const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
const { page } = tab;

const opener = page.getByRole('button', { name: 'Save / Add to dashboard' });
const dialog = page.getByTestId('save-insight-dialog');
const nameField = dialog.getByLabel('Name');
const hasFocus = (l: Locator) => l.evaluate((el) => el === el.ownerDocument.activeElement);
const focusedTag = () => page.evaluate('document.activeElement?.tagName ?? null');

t.test('the proposed name is selected, typing replaces it, and the focus returns to the opener after saving', async (t) => {
  await opener.click();
  await nameField.waitFor();
  t.ok(await hasFocus(nameField), 'the name field has the focus');
  const selection = await nameField.evaluate((input: any) => [input.value, input.selectionStart, input.selectionEnd]);
  t.same(selection, ['Activity', 0, 'Activity'.length], 'the whole proposed name is selected');
  await checkAccessible(t, page, 'save dialog');
  await page.keyboard.type('Daily activity');
  await page.keyboard.press('Enter');
  await page.getByTestId('saved-note').waitFor();
  await dialog.waitFor({ state: 'detached' });
  const insights = (await server.request('GET', `/api/v1/projects/${project.id}/insights`, { token })).body.items;
  t.same(
    insights.map((i: { name: string }) => i.name),
    ['Daily activity'],
    'the typed name, not appended to the proposed one',
  );
  t.not(await focusedTag(), 'BODY', 'the focus is not left on the body');
  t.ok(await hasFocus(opener), 'the focus is on the button that opened the dialog');
});

t.test('Cancel and Escape return the focus to the opener', async (t) => {
  await tabTo(page, opener);
  await page.keyboard.press('Enter');
  await nameField.waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  t.ok(await hasFocus(opener), 'after Cancel');

  await opener.click();
  await nameField.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.ok(await hasFocus(opener), 'after Escape');
  const insights = (await server.request('GET', `/api/v1/projects/${project.id}/insights`, { token })).body.items;
  t.equal(insights.length, 1, 'nothing more was saved');
  checkClean(t, tab);
});

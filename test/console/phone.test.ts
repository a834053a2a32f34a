// The console on a phone, in chromium at 390×844 and at 360 wide: signed in through the form, every
// page of the navigation is opened through the menu button as a person would, and none scrolls the
// document sideways; the switchers and "Sign out" are in the menu; Escape and choosing a link close
// it. At 1280 the navigation stays beside the page with no menu button.

import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { startTestServer } from '../support/testServer.js';
import { createTenant, TEST_PASSWORD } from '../support/factories.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { loadDemoData } from '../../server/demo/loadDemoData.js';
import { addMembership, createOrganization } from '../../server/accounts/organizations.js';
import { checkAccessible, checkClean, openConsole, signInThroughForm } from './consoleKit.js';
import { eventually } from '../support/eventually.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, project } = await createTenant(server);
const { meta, clock } = server.running.services;
// A second organization, so the menu carries the organization switcher as well as the project's.
addMembership(meta, createOrganization(meta, 'Second org', clock.now()).id, owner.id, 'admin', clock.now());
await loadDemoData(server.running.services, project.id, owner.id, { visitors: 80 });
const browser = await launchChromium();
t.teardown(() => browser.close());

const PHONE = { width: 390, height: 844 };
const NARROWEST = { width: 360, height: 780 };
/** Pages checked with axe as well, with their menu open on the first. */
const AXE_PAGES = new Set(['Activity', 'Events', 'Pages', 'Organization']);

const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu' });
const projectNav = (page: Page) => page.getByRole('navigation', { name: 'Project' });

async function openMenu(page: Page): Promise<void> {
  if ((await menuButton(page).getAttribute('aria-expanded')) !== 'true') await menuButton(page).click();
  await projectNav(page).waitFor();
}

// How far the document is wider than the window (0 when it fits, with a pixel for rounding) and,
// when it is, the elements reaching past the window's right edge: what a failure points at.
const OVERFLOW = `(() => {
  const over = document.documentElement.scrollWidth - window.innerWidth - 1;
  if (over <= 0) return { over: 0, culprits: [] };
  const past = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1);
  const outermost = past.filter((el) => !past.includes(el.parentElement));
  return { over, culprits: outermost.slice(0, 5).map((el) => el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ').join('.') : '') + ' ' + Math.round(el.getBoundingClientRect().right) + 'px') };
})()`;

async function checkFits(t: Test, page: Page, what: string): Promise<void> {
  const { over, culprits } = (await page.evaluate(OVERFLOW)) as { over: number; culprits: string[] };
  t.equal(over, 0, `${what}: no sideways scrolling of the page${culprits.length ? ` (past the edge: ${culprits.join(', ')})` : ''}`);
}

/** The page's heading drawn and nothing loading any more, twice in a row (a page loads in steps). */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  for (let calm = 0; calm < 2; ) {
    await page.waitForTimeout(150);
    calm = (await page.locator('.state.loading').count()) === 0 ? calm + 1 : 0;
  }
}

/** "Sign out" is in the open menu and inside the window; Escape closes the menu onto its button. */
async function checkSignOutReachable(t: Test, page: Page, what: string): Promise<void> {
  await openMenu(page);
  const signOut = page.getByRole('button', { name: 'Sign out' });
  const box = await signOut.boundingBox();
  const width = (await page.evaluate('window.innerWidth')) as number;
  t.ok(box && box.x >= 0 && box.x + box.width <= width, `${what}: "Sign out" is in the menu, inside the window`);
  await page.keyboard.press('Escape');
  // The menu closes at the next render, which a loaded machine may draw after the key's round trip.
  const expanded = await eventually(
    `${what}: the menu closed`,
    () => menuButton(page).getAttribute('aria-expanded'),
    (v) => v === 'false',
    5000,
  ).catch(() => 'true');
  t.equal(expanded, 'false', `${what}: Escape closes the menu`);
  t.ok(await menuButton(page).evaluate((el: any) => el === el.ownerDocument.activeElement), `${what}: and gives the focus back to its button`);
}

/** Opens `label` from the menu with the mouse and checks the page fits the window. */
async function visitFromMenu(t: Test, page: Page, label: string): Promise<void> {
  await openMenu(page);
  await projectNav(page).getByRole('link', { name: label, exact: true }).click();
  await settled(page);
  t.equal(await menuButton(page).getAttribute('aria-expanded'), 'false', `${label}: choosing the link closes the menu`);
  await checkFits(t, page, label);
}

t.test('every page of the navigation fits a phone; the menu carries the switchers and sign-out', async (t) => {
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  const { page } = tab;
  await page.setViewportSize(PHONE);
  await page.getByRole('heading', { name: 'Sign in to pp' }).waitFor();
  await checkFits(t, page, 'sign-in');
  await signInThroughForm(page, owner.email, TEST_PASSWORD);
  await page.waitForURL(/\/projects\/\d+$/);
  await settled(page);

  await checkFits(t, page, 'the first page');
  t.notOk(await projectNav(page).isVisible(), 'the navigation is folded away');
  t.notOk(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'and so is "Sign out"');
  const controls = (await menuButton(page).getAttribute('aria-controls'))!.split(' ');
  t.same(controls, ['shell-menu', 'shell-nav'], 'the button names what it opens');

  await openMenu(page);
  t.equal(await menuButton(page).getAttribute('aria-expanded'), 'true', 'the button says the menu is open');
  t.ok(await page.getByRole('combobox', { name: 'Organization' }).isVisible(), 'the organization switcher is in the menu');
  t.ok(await page.getByRole('combobox', { name: 'Project' }).isVisible(), 'and the project switcher');
  await checkFits(t, page, 'the open menu');
  await checkAccessible(t, page, 'the open menu');
  await page.keyboard.press('Escape');

  const labels = await projectNavLabels(page);
  t.ok(labels.length >= 20, `the navigation offers ${labels.length} pages`);
  for (const label of labels) {
    await visitFromMenu(t, page, label);
    await checkSignOutReachable(t, page, label);
    if (AXE_PAGES.has(label)) await checkAccessible(t, page, label);
  }

  // A wide table scrolls inside its own box, which a keyboard can then reach.
  await visitFromMenu(t, page, 'Pages');
  const box = page.locator('.table-box', { has: page.getByTestId('behavior-pages') });
  t.ok(await box.evaluate((el: any) => el.scrollWidth > el.clientWidth && el.tabIndex === 0 && el.getAttribute('role') === 'region'), 'the pages table scrolls in its box');

  await openMenu(page);
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link').click();
  await settled(page);
  await checkFits(t, page, 'account');
  checkClean(t, tab);
});

t.test('at 360 wide every page of the navigation still fits', async (t) => {
  const tab = await signedInPhone(t, NARROWEST);
  for (const label of await projectNavLabels(tab.page)) await visitFromMenu(t, tab.page, label);
  checkClean(t, tab);
});

t.test('the menu by keyboard: Enter opens it, Tab walks into it, a chosen link takes the focus to the page', async (t) => {
  const { page } = await signedInPhone(t, PHONE);
  await menuButton(page).focus();
  await page.keyboard.press('Enter');
  t.equal(await menuButton(page).getAttribute('aria-expanded'), 'true', 'Enter opens the menu');
  await page.keyboard.press('Tab');
  t.ok(await page.getByRole('combobox', { name: 'Organization' }).evaluate((el: any) => el === el.ownerDocument.activeElement), 'the next Tab is in the menu, on the first switcher');
  const events = projectNav(page).getByRole('link', { name: 'Events', exact: true });
  for (let i = 0; i < 40 && !(await events.evaluate((el: any) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Events', level: 1 }).waitFor();
  t.equal(await menuButton(page).getAttribute('aria-expanded'), 'false', 'the chosen link closes the menu');
  t.equal(await page.evaluate('document.activeElement?.id'), 'main', 'and the focus goes to the page');
});

t.test('at 1280 the navigation stays beside the page and no menu button shows', async (t) => {
  const { page } = await signedInPhone(t, { width: 1280, height: 860 });
  t.notOk(await menuButton(page).isVisible(), 'no menu button');
  t.ok(await projectNav(page).isVisible(), 'the navigation is shown');
  t.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible(), 'and "Sign out"');
  const nav = (await projectNav(page).boundingBox())!;
  const main = (await page.locator('#main').boundingBox())!;
  t.ok(nav.x + nav.width <= main.x, 'beside the page, on its left');
});

/** The labels of the project navigation, read from the open menu. */
async function projectNavLabels(page: Page): Promise<string[]> {
  await openMenu(page);
  const labels = await projectNav(page).getByRole('link').allTextContents();
  await page.keyboard.press('Escape');
  return labels.map((l) => l.trim());
}

/** A tab of the given size signed in through the form, on the first project's page. */
async function signedInPhone(t: Test, viewport: { width: number; height: number }) {
  const tab = await openConsole(browser, server, '/sign-in');
  t.teardown(() => tab.close());
  await tab.page.setViewportSize(viewport);
  await signInThroughForm(tab.page, owner.email, TEST_PASSWORD);
  await tab.page.waitForURL(/\/projects\/\d+$/);
  await settled(tab.page);
  return tab;
}

// Drives the console in chromium against a real test server: a fresh browser context per tab
// (its own cookie jar), the page's errors and CSP violations recorded, sign-in through the form,
// and axe-core run inside the page.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { Test } from 'tap';
import type { TestServer } from '../support/testServer.js';
import { eventually } from '../support/eventually.js';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Today's date in UTC, and the date n days before it: where tests put their hand-made events. */
export const UTC_TODAY = new Date().toISOString().slice(0, 10);
export const daysBefore = (n: number, today = UTC_TODAY): string => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

export interface ConsoleTab {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and console errors of the page (a refused 401 or 422 fetch is not one). */
  errors: string[];
  cspViolations: string[];
  close(): Promise<void>;
}

/** `locale`: the browser's language (navigator.language, and Intl's default); chromium's own otherwise. */
export async function openConsole(browser: Browser, server: TestServer, path = '/', options: { locale?: string } = {}): Promise<ConsoleTab> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 860 }, ...(options.locale ? { locale: options.locale } : {}) });
  const page = await context.newPage();
  const errors: string[] = [];
  const cspViolations: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    const text = msg.text();
    if (/Content Security Policy/i.test(text)) cspViolations.push(text);
    else if (msg.type() === 'error' && !/Failed to load resource/.test(text)) errors.push(text);
  });
  await page.goto(path);
  return { page, context, errors, cspViolations, close: () => context.close() };
}

/** A tab signed in through the form, on the first project's page; closed when `t` ends. */
export async function signedInConsole(t: Test, browser: Browser, server: TestServer, email: string, password: string, options: { locale?: string } = {}): Promise<ConsoleTab> {
  const tab = await openConsole(browser, server, '/sign-in', options);
  t.teardown(() => tab.close());
  await signInThroughForm(tab.page, email, password);
  await tab.page.waitForURL(/\/projects\/\d+$/);
  return tab;
}

/** POST /api/v1/projects/{id}/queries/{kind} as `token`; the answer, or an error naming the status. */
export async function askQuery(server: TestServer, token: string, projectId: number, kind: string, body: unknown): Promise<any> {
  const res = await server.request('POST', `/api/v1/projects/${projectId}/queries/${kind}`, { token, body });
  if (res.status !== 200) throw new Error(`${kind}: ${res.status} ${res.text}`);
  return res.body;
}

export async function signInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the devtools protocol, so the page's CSP (no inline script) does not apply.
  await page.evaluate(axeSource);
  const found = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')),
  })))`)) as AxeViolation[];
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asserts the page has no serious or critical accessibility findings, listing any it has. */
export async function checkAccessible(t: Test, page: Page, what: string): Promise<void> {
  const found = await axeViolations(page);
  t.same(found, [], `${what}: no serious or critical axe findings`);
}

/** Asserts the tab had no script errors and no CSP violations. */
export function checkClean(t: Test, tab: ConsoleTab): void {
  t.same(tab.cspViolations, [], 'no Content-Security-Policy violations');
  t.same(tab.errors, [], 'no script errors');
}

/** The bodies of the analytical queries a page sent and had answered, by kind, in the order sent. */
export interface QueryLog {
  bodies(kind: string): Promise<any[]>;
}

// The API client hands fetch a Request whose body the devtools protocol does not report, so the
// page's own fetch is wrapped (before the client takes it) to keep each answered query's body.
const RECORD_QUERIES = `(() => {
  const fetch = window.fetch.bind(window);
  const sent = (window.__ppSentQueries = []);
  window.fetch = async (input, init) => {
    const request = new Request(input, init);
    const kind = /\\/api\\/v1\\/projects\\/\\d+\\/queries\\/([\\w-]+)$/.exec(new URL(request.url).pathname)?.[1];
    const body = kind && request.method === 'POST' ? await request.clone().text() : undefined;
    // Kept in the order sent, and marked once settled: answers may come back in another order.
    const entry = body === undefined ? undefined : { kind, body: JSON.parse(body), settled: false };
    if (entry) sent.push(entry);
    try {
      return await fetch(request);
    } finally {
      if (entry) entry.settled = true;
    }
  };
})()`;

/** Starts recording the page's queries; the page is loaded again so the wrapper comes first. */
export async function recordQueries(page: Page): Promise<QueryLog> {
  await page.addInitScript(RECORD_QUERIES);
  await page.reload();
  return {
    bodies: async (kind) =>
      ((await page.evaluate('window.__ppSentQueries')) as Array<{ kind: string; body: unknown; settled: boolean }>).filter((q) => q.kind === kind && q.settled).map((q) => q.body),
  };
}

/**
 * The last `kind` query the page sent, once it satisfies `done` (the controls have all been set)
 * and its answer is drawn: the body a test asks the API again to compare the drawn numbers with.
 */
export async function answeredQuery(page: Page, log: QueryLog, kind: string, done: (body: any) => boolean): Promise<any> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const body = (await log.bodies(kind)).at(-1);
    if (body && done(body) && (await page.locator('.state.loading').count()) === 0) return body;
    if (Date.now() > deadline) throw new Error(`no ${kind} query like the one built was answered; the last: ${JSON.stringify(body)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Waits until the page's address holds what the controls were set to (`done` on its query), and
 * names the address last seen when it never does.
 */
export async function addressBuilt(page: Page, what: string, done: (query: URLSearchParams) => boolean): Promise<void> {
  await eventually(
    what,
    async () => page.url(),
    (url) => done(new URL(url).searchParams),
    20_000,
  );
}

/** From the console home, the page `label` of the project navigation, opened with the mouse (through the menu in a narrow window). */
export async function openFromNavigation(page: Page, label: string): Promise<void> {
  await page.getByRole('link', { name: 'pp home' }).click();
  // A narrow window folds the navigation behind its menu button: a person opens the menu first.
  const menu = page.getByRole('button', { name: 'Menu' });
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** Presses Tab until `target` has the focus, as a keyboard user reaches a control. */
export async function tabTo(page: Page, target: Locator, most = 150): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el: any) => el === el.ownerDocument.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${target} not reached within ${most} presses of Tab`);
}

/** Picks `option` of a select with the keyboard only: Tab to it, then type the option's text. */
export async function chooseWithKeyboard(page: Page, select: Locator, option: string): Promise<void> {
  await tabTo(page, select);
  await page.keyboard.type(option);
  const chosen = await select.evaluate((el: any) => el.selectedOptions[0]?.textContent as string | undefined);
  if (chosen !== option) throw new Error(`typing "${option}" chose "${chosen}"`);
}

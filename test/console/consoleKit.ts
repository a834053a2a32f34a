// Drives the console in chromium against a real test server: a fresh browser context per tab
// (its own cookie jar), the page's errors and CSP violations recorded, sign-in through the form,
// and axe-core run inside the page.

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Test } from 'tap';
import type { TestServer } from '../support/testServer.js';

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

export async function openConsole(browser: Browser, server: TestServer, path = '/'): Promise<ConsoleTab> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 860 } });
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
export async function signedInConsole(t: Test, browser: Browser, server: TestServer, email: string, password: string): Promise<ConsoleTab> {
  const tab = await openConsole(browser, server, '/sign-in');
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

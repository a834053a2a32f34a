// `ppctl serve --embedded` on a fresh data folder, as `npm start` runs it (demo data included),
// and a chromium page signed in as the demo owner after the first password change. For the
// screenshots of docs/console/ and the console's render benchmark.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Browser, Page } from 'playwright-core';
import { packageRoot } from '../../server/ground/packageRoot.js';

export interface DemoServer {
  url: string;
  /** The printed one-time password. */
  password: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export const DEMO_OWNER_PASSWORD = 'Demo-Owner-2026';

export async function startDemoServer(): Promise<DemoServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-demo-'));
  const child = spawn(process.execPath, [path.join(packageRoot(), 'dist', 'bin', 'ppctl.js'), 'serve', '--embedded', '--port', '0', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const banner = await new Promise<{ url: string; password: string }>((resolve, reject) => {
    let url = '';
    let password = '';
    createInterface({ input: child.stdout! }).on('line', (line) => {
      url ||= /pp is running at (https?:\/\/[^/\s]+)/.exec(line)?.[1] ?? '';
      password ||= /one-time password: (\S+)/.exec(line)?.[1] ?? '';
      if (/demo project id/.test(line)) resolve({ url, password });
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  return {
    ...banner,
    child,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A page of a fresh browser context, signed in as the demo owner with the first password changed. */
export async function demoOwnerPage(browser: Browser, demo: DemoServer, onFirstPassword?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await (await browser.newContext({ baseURL: demo.url, viewport: { width: 1360, height: 900 } })).newPage();
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('owner@pp.local');
  await page.getByLabel('Password').fill(demo.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Current password').fill(demo.password);
  await page.getByLabel('New password').fill(DEMO_OWNER_PASSWORD);
  await onFirstPassword?.(page);
  await page.getByRole('button', { name: 'Save the password' }).click();
  await page.locator('.tiles').waitFor();
  return page;
}

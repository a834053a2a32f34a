// Takes the screenshots of docs/console/ (`npm run console:screenshots`): a fresh data folder, the
// embedded start with its demo data, the first sign-in with its password change, then each main
// page in chromium once its answer is drawn.
//
//   node dist/test/console/screenshots.js [--out docs/console]

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { launchChromium } from '../support/chromium.js';
import { packageRoot } from '../../server/packageRoot.js';

const at = process.argv.indexOf('--out');
const out = path.resolve(at > 0 ? process.argv[at + 1]! : path.join(packageRoot(), 'docs', 'console'));
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-shots-'));

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

const browser = await launchChromium();
try {
  const page = await (await browser.newContext({ baseURL: banner.url, viewport: { width: 1360, height: 900 } })).newPage();
  const shot = async (name: string, ready: () => Promise<unknown>) => {
    await ready();
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(out, `${name}.png`), fullPage: false });
    process.stdout.write(`${name}.png\n`);
  };
  await page.goto('/');
  await shot('sign-in', () => page.getByRole('heading', { name: 'Sign in to pp' }).waitFor());
  await page.getByLabel('Email').fill('owner@pp.local');
  await page.getByLabel('Password').fill(banner.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByLabel('Current password').fill(banner.password);
  await page.getByLabel('New password').fill('Demo-Owner-2026');
  await shot('first-password', () => page.getByRole('heading', { name: 'Set your own password' }).waitFor());
  await page.getByRole('button', { name: 'Save the password' }).click();
  await shot('activity', () => page.locator('.uplot').waitFor());
  await page.goto('/projects/1/insights/funnel?steps=pp.page_view~pp.form_start~signup~purchase&breakdown=props.method');
  await shot('funnel', () => page.getByTestId('funnel-table').waitFor());
  await page.goto('/projects/1/insights/retention?start=signup&return=report_viewed');
  await shot('retention', () => page.getByTestId('retention-grid').waitFor());
  await page.goto('/projects/1/insights/segmentation?event=pp.page_view&metric=uniques&group_by=path');
  await shot('segmentation', () => page.locator('.uplot').waitFor());
  await page.goto('/projects/1/insights/lifecycle');
  await shot('lifecycle', () => page.getByTestId('lifecycle-table').waitFor());
  await page.goto('/projects/1/insights/revenue');
  await shot('revenue', () => page.getByTestId('revenue-tiles').waitFor());
  await page.goto('/projects/1/keys');
  await shot('keys', () => page.getByTestId('tracker-snippet').waitFor());
  await page.goto('/org');
  await shot('organization', () => page.getByRole('heading', { name: 'Members' }).waitFor());
} finally {
  await browser.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}

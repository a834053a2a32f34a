// Takes the screenshots of docs/console/ (`npm run console:screenshots`): a fresh data folder, the
// embedded start with its demo data, the first sign-in with its password change, then each main
// page in chromium once its answer is drawn.
//
//   node dist/test/console/screenshots.js [--out docs/console]

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { demoOwnerPage, startDemoServer } from './demoServer.js';

const at = process.argv.indexOf('--out');
const out = path.resolve(at > 0 ? process.argv[at + 1]! : path.join(packageRoot(), 'docs', 'console'));
mkdirSync(out, { recursive: true });

const demo = await startDemoServer();
const browser = await launchChromium();
try {
  let page: Page | undefined;
  const shot = async (target: Page, name: string, ready: () => Promise<unknown>) => {
    await ready();
    await target.waitForTimeout(300);
    await target.screenshot({ path: path.join(out, `${name}.png`), fullPage: false });
    process.stdout.write(`${name}.png\n`);
  };
  const signInPage = await (await browser.newContext({ baseURL: demo.url, viewport: { width: 1360, height: 900 } })).newPage();
  await signInPage.goto('/');
  await shot(signInPage, 'sign-in', () => signInPage.getByRole('heading', { name: 'Sign in to pp' }).waitFor());
  page = await demoOwnerPage(browser, demo, (current) => shot(current, 'first-password', () => current.getByRole('heading', { name: 'Set your own password' }).waitFor()));
  await shot(page, 'activity', () => page!.locator('.uplot').waitFor());
  const visit = async (name: string, url: string, ready: (p: Page) => Promise<unknown>) => {
    await page!.goto(url);
    await shot(page!, name, () => ready(page!));
  };
  await visit('funnel', '/projects/1/insights/funnel?steps=pp.page_view~pp.form_start~signup~purchase&breakdown=props.method', (p) => p.getByTestId('funnel-table').waitFor());
  await visit('retention', '/projects/1/insights/retention?start=signup&return=report_viewed', (p) => p.getByTestId('retention-grid').waitFor());
  await visit('segmentation', '/projects/1/insights/segmentation?event=pp.page_view&metric=uniques&group_by=path', (p) => p.locator('.uplot').waitFor());
  await visit('lifecycle', '/projects/1/insights/lifecycle', (p) => p.getByTestId('lifecycle-table').waitFor());
  await visit('paths', '/projects/1/insights/paths?event=pp.page_view&depth=4&top_n=6&exclude=pp.scroll_depth~pp.click', (p) => p.locator('[data-testid=sankey][data-drawn=whole]').waitFor());
  await visit('revenue', '/projects/1/insights/revenue', (p) => p.getByTestId('revenue-tiles').waitFor());
  await visit('keys', '/projects/1/keys', (p) => p.getByTestId('tracker-snippet').waitFor());
  // The busiest page's report and the first form's, reached from their lists as a person would.
  await page.goto('/projects/1/behavior/pages');
  await page.getByTestId('behavior-pages').locator('tbody tr a').first().click();
  await shot(page, 'behavior-heatmap', async () => {
    await page!.locator('[data-testid=heatmap] rect.heat-cell').first().waitFor();
    await page!.getByRole('heading', { name: 'Where it is clicked' }).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  });
  await page.goto('/projects/1/behavior/forms');
  await page.getByTestId('behavior-forms').locator('tbody tr a').first().click();
  await shot(page, 'behavior-form', () => page!.getByTestId('form-fields').waitFor());
  await visit('organization', '/org', (p) => p.getByRole('heading', { name: 'Members' }).waitFor());
} finally {
  await browser.close();
  await demo.stop();
}

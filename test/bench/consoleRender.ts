// `npm run bench:console`: how long the console takes from a query's answer to its chart on screen,
// for the largest answers an insight gives (hourly series over 90 days in ten groups, a 90-day
// retention grid, a year of lifecycle, a funnel broken down by page, a 21-step paths graph). Answer size, not the
// number of events behind it, sets the drawing work, so the demo project serves; the query time
// itself is measured by `npm run bench`. And how long a 30-minute recording of a busy page takes
// from opening the player to playing (replayBench.ts). Writes the figures into docs/BENCHMARKS.md.
//
//   node dist/test/bench/consoleRender.js [--runs 7] [--no-docs] [--only paths,funnel,replay]

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import { packageRoot } from '../../server/ground/packageRoot.js';
import { demoOwnerPage, startDemoServer } from '../console/demoServer.js';
import { replayStartCase } from './replayBench.js';

const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, 'no-docs': { type: 'boolean', default: false }, only: { type: 'string' } },
});
const runs = Number(args.runs);
const TARGET_MS = 100;
const REPLAY_TARGET_MS = 1000;

const today = new Date().toISOString().slice(0, 10);
const daysBefore = (n: number) => new Date(Date.parse(`${today}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

const CASES: Array<{ name: string; url: string; shape: string }> = [
  { name: 'segmentation', url: `/projects/1/insights/segmentation?event=any&metric=events&interval=hour&group_by=path&from=${daysBefore(89)}&to=${today}`, shape: '10 series × 2,160 hourly points' },
  { name: 'retention', url: `/projects/1/insights/retention?start=pp.page_view&return=any&periods=90&from=${daysBefore(89)}&to=${today}`, shape: '90 cohorts × 91 periods' },
  { name: 'lifecycle', url: `/projects/1/insights/lifecycle?from=${daysBefore(364)}&to=${today}`, shape: '365 days × 4 states' },
  {
    name: 'funnel',
    url: `/projects/1/insights/funnel?steps=pp.page_view~pp.click~pp.form_start~signup~report_viewed~purchase&breakdown=path&from=${daysBefore(29)}&to=${today}`,
    shape: '6 steps, 10 segments',
  },
  { name: 'paths', url: `/projects/1/insights/paths?event=pp.page_view&depth=20&top_n=20&from=${daysBefore(29)}&to=${today}`, shape: 'a Sankey graph of 21 steps × 22 nodes' },
  { name: 'stickiness', url: `/projects/1/insights/stickiness?event=any&from=${daysBefore(89)}&to=${today}`, shape: '90 bars' },
  { name: 'activity', url: `/projects/1?event=any`, shape: '6 tiles, 30 points' },
];

/** From the last byte of the page's query answer to the chart drawn after it, in ms. */
async function renderTime(page: Page, url: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url);
  for (let i = 0; i < 600; i++) {
    const measured = (await page.evaluate(`(() => {
      const answers = performance.getEntriesByType('resource').filter((e) => e.name.includes('/queries/'));
      const drawn = performance.getEntriesByName('pp:drawn');
      if (answers.length === 0 || drawn.length === 0) return null;
      const answered = Math.max(...answers.map((e) => e.responseEnd));
      const after = drawn.map((e) => e.startTime).filter((t) => t >= answered);
      return after.length ? Math.min(...after) - answered : null;
    })()`)) as number | null;
    if (measured !== null) return measured;
    await page.waitForTimeout(50);
  }
  throw new Error(`${url}: no chart was drawn after the answer`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const demo = await startDemoServer();
const browser = await launchChromium();
const rows: Array<{ name: string; shape: string; median: number; max: number }> = [];
let replay: { shape: string; median: number; max: number } | undefined;
try {
  const page = await demoOwnerPage(browser, demo);
  const only = args.only?.split(',');
  for (const c of CASES.filter((x) => !only || only.includes(x.name))) {
    await renderTime(page, c.url); // warm-up: the page's code is loaded once
    const times: number[] = [];
    for (let r = 0; r < runs; r++) times.push(await renderTime(page, c.url));
    rows.push({ name: c.name, shape: c.shape, median: median(times), max: Math.max(...times) });
    process.stdout.write(`${c.name.padEnd(14)} ${c.shape.padEnd(32)} median ${median(times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms\n`);
  }
  if (!only || only.includes('replay')) {
    const r = await replayStartCase(browser, runs);
    replay = { shape: r.shape, median: median(r.times), max: Math.max(...r.times) };
    process.stdout.write(`${'replay'.padEnd(14)} ${r.shape} median ${replay.median.toFixed(1)} ms, max ${replay.max.toFixed(1)} ms\n`);
  }
} finally {
  await browser.close();
  await demo.stop();
}

const START = '<!-- bench:console:start -->';
const END = '<!-- bench:console:end -->';
const block = [
  `### Console rendering, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  '',
  `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores; chromium headless, 1360×900; ${runs} runs after a warm-up, each a fresh load of the page.`,
  ...(rows.length > 0
    ? [
        `From the last byte of the query's answer to its chart painted (target ${TARGET_MS} ms):`,
        '',
        '| insight | answer | median | max | within target |',
        '|---|---|---:|---:|---|',
        ...rows.map((r) => `| ${r.name} | ${r.shape} | ${r.median.toFixed(1)} ms | ${r.max.toFixed(1)} ms | ${r.max <= TARGET_MS ? 'yes' : 'no'} |`),
      ]
    : []),
  ...(replay
    ? [
        '',
        `Session player: from opening a recording's page (sign-in kept) to the recording playing (target ${REPLAY_TARGET_MS} ms):`,
        '',
        '| recording | median | max | within target |',
        '|---|---:|---:|---|',
        `| ${replay.shape} | ${replay.median.toFixed(1)} ms | ${replay.max.toFixed(1)} ms | ${replay.max <= REPLAY_TARGET_MS ? 'yes' : 'no'} |`,
      ]
    : []),
].join('\n');
if (!args['no-docs']) {
  const file = path.join(packageRoot(), 'docs', 'BENCHMARKS.md');
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  if (!text.includes(START)) text = text.replace('## Previous runs', `## Console rendering\n\n${START}\n${END}\n\n## Previous runs`);
  text = `${text.slice(0, text.indexOf(START) + START.length)}\n${block}\n${text.slice(text.indexOf(END))}`;
  writeFileSync(file, text);
}
process.stdout.write(block + '\n');

// Test pages that install the tracker the way docs/tracker.md tells a site to (its snippets,
// or a data-attribute tag with integrity and crossorigin for any src), opened in a fresh
// browser context that records every request the page makes and its console.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { REPO_ROOT } from './trackerBuild.js';

export interface TagOptions {
  src: string;
  key: string;
  // Where events go (data-host / host).
  host: string;
  // The manifest's integrity value; a tag without it is how /v1/t.js is used.
  integrity?: string;
  debug?: boolean;
}

const attr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

// <script async … data-key data-host>: the tracker starts itself.
export function trackerTag(o: TagOptions): string {
  const sri = o.integrity ? ` integrity="${attr(o.integrity)}" crossorigin="anonymous"` : '';
  const debug = o.debug ? ' data-debug' : '';
  return `<script async src="${attr(o.src)}"${sri} data-key="${attr(o.key)}" data-host="${attr(o.host)}"${debug}></script>`;
}

// The three install snippets of docs/tracker.md ("Installing"), in their order there: data
// attributes, a tag and pp.init, the one-line stub for an async tag. Tests run them with the
// documented placeholders replaced, so the page does exactly what the docs tell a site to do.
export interface DocSnippets {
  data: string;
  init: string;
  stub: string;
}

const DOC_HOST = 'https://pp.example.com';
const DOC_KEY = /pp_bt_X{8}x{32}/g;

export function docSnippets(host: string, key: string): DocSnippets {
  const doc = readFileSync(path.join(REPO_ROOT, 'docs/tracker.md'), 'utf8');
  const installing = doc.slice(doc.indexOf('## Installing'), doc.indexOf('### API'));
  const blocks = [...installing.matchAll(/```html\n([\s\S]*?)```/g)].map((m) => m[1]!.split(DOC_HOST).join(host).replace(DOC_KEY, key));
  if (blocks.length !== 3) throw new Error(`docs/tracker.md: expected three html snippets under Installing, found ${blocks.length}`);
  return { data: blocks[0]!, init: blocks[1]!, stub: blocks[2]! };
}

export function pageHtml(o: { title?: string; head?: string; body?: string }): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${o.title ?? 'Test page'}</title>
${o.head ?? ''}
</head><body>
${o.body ?? ''}
</body></html>
`;
}

export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

export interface TrackedPage {
  context: BrowserContext;
  page: Page;
  // Console lines of the page, e.g. the tracker's debug warnings.
  console: string[];
  // Every request the page made whose URL starts with `prefix` (all when omitted). Requests
  // of a page being left (sendBeacon at page hide) are not reported by the browser.
  sent(prefix?: string): Promise<SentRequest[]>;
  // Resolves with the first console line containing `text` (now or later).
  consoleLine(text: string, timeoutMs?: number): Promise<string>;
  // How the page's <script> whose src ends with `suffix` ended: 'load' once it ran,
  // 'error' when it was refused (network, integrity). Waits for the outcome.
  scriptOutcome(suffix: string, timeoutMs?: number): Promise<'load' | 'error'>;
  close(): Promise<void>;
}

// Records how every script element ended. load and error do not bubble, but a capturing
// listener on the document sees them (an element's load never reaches window); `load`
// fires after the script ran.
const SCRIPT_WATCH = `window.__ppScripts = [];
for (const outcome of ['load', 'error']) {
  document.addEventListener(outcome, (e) => { if (e.target instanceof HTMLScriptElement) __ppScripts.push([e.target.src, outcome]); }, true);
}`;

// A new context per page: its own storage (a new anonymous id) and its own HTTP cache (the
// public configuration is cacheable for a minute).
export async function openTrackedPage(browser: Browser, url: string): Promise<TrackedPage> {
  const context = await browser.newContext();
  const requests: Request[] = [];
  const lines: string[] = [];
  const waiters: Array<{ text: string; resolve: (line: string) => void }> = [];
  context.on('request', (r) => requests.push(r));
  await context.addInitScript(SCRIPT_WATCH);
  const page = await context.newPage();
  page.on('console', (m) => {
    const line = m.text();
    lines.push(line);
    for (const w of waiters.filter((w) => line.includes(w.text))) w.resolve(line);
  });
  page.on('pageerror', (err) => lines.push(`pageerror: ${err.message}`));
  await page.goto(url);
  return {
    context,
    page,
    console: lines,
    async sent(prefix = '') {
      const chosen = requests.filter((r) => r.url().startsWith(prefix));
      return Promise.all(chosen.map(async (r) => ({ url: r.url(), method: r.method(), headers: await r.allHeaders(), body: r.postData() ?? '' })));
    },
    consoleLine(text, timeoutMs = 10_000) {
      const seen = lines.find((l) => l.includes(text));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no console line with "${text}" within ${timeoutMs} ms; console: ${JSON.stringify(lines)}`)), timeoutMs);
        waiters.push({ text, resolve: (line) => (clearTimeout(timer), resolve(line)) });
      });
    },
    async scriptOutcome(suffix, timeoutMs = 10_000) {
      const expression = `(__ppScripts.find(([src]) => src.endsWith(${JSON.stringify(suffix)})) || [])[1]`;
      const handle = await page.waitForFunction(expression, undefined, { timeout: timeoutMs, polling: 50 });
      return (await handle.jsonValue()) as 'load' | 'error';
    },
    close: () => context.close(),
  };
}

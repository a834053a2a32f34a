// The console bench's replay case: a 30-minute recording of a busy page (a large first snapshot,
// mouse moves, scrolls and a stream of mutations, a page change every ten minutes) stored through
// /v1/replay in tracker-sized chunks on a server of its own (with the actor_drilldown license),
// then the player page opened fresh in chromium: from navigation start to the replayer playing.

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../server/ground/config.js';
import { startServer } from '../../server/start.js';
import { createUser } from '../../server/accounts/users.js';
import { addMembership, createOrganization } from '../../server/accounts/organizations.js';
import { createProject } from '../../server/accounts/projects.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';
import { issueIngestKey } from '../../server/keys/ingestKeys.js';
import { signTestLicense, testKeysDir } from '../support/license.js';

const MINUTES = 30;
const PAGES = 3;
const SNAPSHOT_NODES = 3000;
/** Below the tracker's 56 KB bodies, with room for the envelope. */
const CHUNK_BYTES = 50 * 1024;
const ORIGIN = 'https://busy.example';
const PASSWORD = 'Bench-Replay-2026';

export interface ReplayStartCase {
  shape: string;
  times: number[];
}

/** A full snapshot of a page with a long list of product cards; node ids start at `base`. */
function snapshot(ts: number, page: number, base: number): { event: object; next: number; listId: number } {
  let id = base;
  const text = (t: string) => ({ type: 3, id: id++, textContent: t });
  const el = (tagName: string, attributes: Record<string, string>, childNodes: object[]) => ({ type: 2, id: id++, tagName, attributes, childNodes });
  const cards = Array.from({ length: SNAPSHOT_NODES / 6 }, (_, i) =>
    el('li', { class: 'card' }, [el('h3', {}, [text(`Product ${page}-${i}`)]), el('p', {}, [text(`A fine product, number ${i}, in stock.`)])]),
  );
  const list = el('ul', { id: 'list' }, cards);
  const style = el('style', {}, [{ type: 3, id: id++, textContent: '.card { padding: 8px; border: 1px solid #ccc; margin: 4px; } h3 { margin: 0; }', isStyle: true }]);
  const html = el('html', {}, [el('head', {}, [style]), el('body', {}, [el('h1', {}, [text(`Busy page ${page}`)]), list])]);
  const node = { type: 0, id: id++, childNodes: [{ type: 1, id: id++, name: 'html', publicId: '', systemId: '' }, html] };
  return { event: { type: 2, timestamp: ts, data: { node, initialOffset: { top: 0, left: 0 } } }, next: id, listId: list.id };
}

/** The recording's rrweb events, in time order. */
function busyRecording(start: number): object[] {
  const events: object[] = [];
  const pageMs = (MINUTES * 60_000) / PAGES;
  let nextId = 1;
  for (let p = 0; p < PAGES; p++) {
    const t0 = start + p * pageMs;
    events.push({ type: 4, timestamp: t0, data: { href: `${ORIGIN}/page-${p}`, width: 1280, height: 800 } });
    const snap = snapshot(t0 + 5, p, nextId);
    events.push(snap.event);
    nextId = snap.next;
    for (let s = 1; s < pageMs / 1000; s++) {
      const t = t0 + s * 1000;
      // Two mouse-move batches a second, a scroll every other second, ten list mutations a second.
      for (const half of [0, 500]) {
        events.push({
          type: 3,
          timestamp: t + half,
          data: { source: 1, positions: Array.from({ length: 10 }, (_, i) => ({ x: (s * 7 + i * 13) % 1280, y: (s * 11 + i * 17) % 800, id: snap.listId, timeOffset: -i * 50 })) },
        });
      }
      if (s % 2 === 0) events.push({ type: 3, timestamp: t + 250, data: { source: 3, id: 1, x: 0, y: (s * 40) % 4000 } });
      for (let m = 0; m < 10; m++) {
        const li = nextId++;
        const txt = nextId++;
        events.push({
          type: 3,
          timestamp: t + 50 + m * 90,
          data: {
            source: 0,
            texts: [],
            attributes: [],
            removes: [],
            adds: [
              { parentId: snap.listId, nextId: null, node: { type: 2, id: li, tagName: 'li', attributes: { class: 'card' }, childNodes: [{ type: 3, id: txt, textContent: `Update ${s}.${m}` }] } },
            ],
          },
        });
      }
    }
  }
  return events;
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain', origin: ORIGIN, ...headers }, body: JSON.stringify(body) });
  if (res.status !== 202) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function replayStartCase(browser: Browser, runs: number): Promise<ReplayStartCase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-replay-bench-'));
  const config = loadConfig({ env: {}, flags: { port: 0, host: '127.0.0.1', data_dir: dataDir, log_level: 'warn', 'license.trusted_keys_dir': testKeysDir() } });
  const running = await startServer(config);
  try {
    const { services } = running;
    const now = new Date();
    await services.license.apply(await signTestLicense(now, { features: ['actor_drilldown'] }));
    const owner = await createUser(services.meta, { email: 'replay-bench@pp.local', password: PASSWORD, name: 'Replay bench' }, now);
    const org = createOrganization(services.meta, 'Replay bench', now);
    addMembership(services.meta, org.id, owner.id, 'owner', now);
    const project = createProject(services.meta, { orgId: org.id, name: 'Busy site' }, now);
    patchBehaviorSettings(services.meta, project.id, { replay_enabled: true, privacy_mode: 'standard' }, owner.id, now);
    const key = issueIngestKey(services, project.id, { type: 'browser', name: 'site', domains: ['busy.example'], expires_at: new Date(now.getTime() + 86_400_000).toISOString() }, owner.id).value;

    const start = now.getTime() - (MINUTES + 5) * 60_000;
    const events = busyRecording(start);
    let chunk: object[] = [];
    let size = 0;
    let seq = 0;
    let bytes = 0;
    const flush = async () => {
      if (chunk.length === 0) return;
      await post(`${running.url}/v1/replay`, { credential: key, session_id: 'busy-session', anonymous_id: 'busy-visitor', seq: seq++, events: chunk });
      chunk = [];
      size = 0;
    };
    for (const e of events) {
      const n = JSON.stringify(e).length + 1;
      bytes += n;
      if (size + n > CHUNK_BYTES) await flush();
      chunk.push(e);
      size += n;
    }
    await flush();
    // The tracker's events of the session: a page view per page, clicks, a few rage and dead clicks.
    const tracked = Array.from({ length: 600 }, (_, i) => {
      const ts = start + 1000 + i * 3000;
      const event = i % 200 === 0 ? 'pp.page_view' : i % 97 === 0 ? 'pp.rage_click' : i % 89 === 0 ? 'pp.dead_click' : 'pp.click';
      return { event, ts: new Date(ts).toISOString(), anonymous_id: 'busy-visitor', session_id: 'busy-session', url: `${ORIGIN}/page-${Math.floor(i / 200)}` };
    });
    for (let i = 0; i < tracked.length; i += 500) await post(`${running.url}/v1/track`, { credential: key, events: tracked.slice(i, i + 500) });

    const context = await browser.newContext({ baseURL: running.url, viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill('replay-bench@pp.local');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(/\/projects\/\d+$/);
    const url = `/projects/${project.id}/recordings/busy-session`;
    const times: number[] = [];
    for (let r = 0; r <= runs; r++) {
      await page.goto('about:blank');
      await page.goto(url);
      await page.waitForFunction(() => performance.getEntriesByName('pp:replay-started').length > 0, undefined, { timeout: 30_000 });
      const ms = (await page.evaluate(() => performance.getEntriesByName('pp:replay-started')[0]!.startTime)) as number;
      // The first load only warms the page's code.
      if (r > 0) times.push(ms);
    }
    await context.close();
    return { shape: `${MINUTES} min, ${events.length.toLocaleString('en')} rrweb events, ${(bytes / 1e6).toFixed(1)} MB in ${seq} chunks`, times };
  } finally {
    await running.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

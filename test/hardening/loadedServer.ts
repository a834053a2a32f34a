// The server the worst-case suite loads: the real `ppctl serve` as a child process (its memory and
// event loop its own) on a prepared data folder, an owner signed in, a week of events sent.

import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Test } from 'tap';
import { loadConfig } from '../../server/ground/config.js';
import { openServices } from '../../server/openServices.js';
import { createUser } from '../../server/accounts/users.js';
import { addMembership, createOrganization } from '../../server/accounts/organizations.js';
import { createProject } from '../../server/accounts/projects.js';
import { issueIngestKey } from '../../server/keys/ingestKeys.js';
import { signTestLicense, testKeysDir } from '../support/license.js';
import { spawnServe } from '../support/ppctl.js';

export const OWNER_EMAIL = 'owner@hardening.test';
export const OWNER_PASSWORD = 'Worst-Case-Owner-9';
export const SITE = 'https://example.com';
const DAY_MS = 86_400_000;

export interface Answer {
  /** 0 when no answer came within the request's time limit. */
  status: number;
  ms: number;
  text: string;
  body: any;
}

export interface SendOptions {
  body?: unknown;
  raw?: string;
  /** An access token or ingestion key; the owner's access token when absent. */
  token?: string | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface LoadedServer {
  url: string;
  pid: number;
  token: string;
  orgId: number;
  ownerId: number;
  analystId: number;
  projectId: number;
  browserKey: { id: number; value: string; prefix: string };
  serverKey: { id: number; value: string; prefix: string };
  send(method: string, urlPath: string, options?: SendOptions): Promise<Answer>;
  /** A further project of the organization, with keys, for routes that change state destructively. */
  freshProject(name: string): Promise<number>;
  stop(): Promise<void>;
}

/** How long one request may take before the suite calls it unanswered. */
export const REQUEST_LIMIT_MS = 10_000;

export async function startLoadedServer(t: Test, options: { seed?: boolean } = {}): Promise<LoadedServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-hardening-'));
  const prepared = await prepareDataDir(dataDir);
  const serve = await spawnServe(['--data-dir', dataDir], {
    PP_LICENSE_TRUSTED_KEYS: testKeysDir(),
    // The suite sends many bodies from one address; the limits under test are the bodies', not the budgets'.
    PP_RATE_LIMIT_AUTH_IP_PER_MINUTE: '100000',
    PP_RATE_LIMIT_AUTH_EMAIL_PER_MINUTE: '100000',
    PP_RATE_LIMIT_IP_PER_MINUTE: '100000',
    PP_RATE_LIMIT_USER_PER_MINUTE: '100000',
  });
  const url = serve.url.replace(/\/$/, '');
  const stop = () => stopProcess(serve.child, dataDir);
  t.teardown(stop);
  // A test process that dies before its teardown must not leave a stalled server behind.
  const orphan = () => serve.child.kill('SIGKILL');
  process.once('exit', orphan);
  void serve.exited.then(() => process.off('exit', orphan));
  const login = await send(url, null, 'POST', '/api/v1/auth/login', { body: { email: OWNER_EMAIL, password: OWNER_PASSWORD }, token: null });
  if (login.status !== 200) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
  const token = login.body.access_token as string;
  const server: LoadedServer = {
    url,
    pid: serve.child.pid!,
    token,
    ...prepared,
    send: (method, urlPath, opts) => send(url, token, method, urlPath, opts),
    async freshProject(name) {
      const res = await send(url, token, 'POST', '/api/v1/projects', { body: { name } });
      if (res.status !== 201) throw new Error(`project not created: ${res.status} ${res.text}`);
      return res.body.id as number;
    },
    stop,
  };
  if (options.seed !== false) await seedEvents(server);
  return server;
}

async function prepareDataDir(dataDir: string) {
  const config = loadConfig({ env: { PP_DATA_DIR: dataDir, PP_LICENSE_TRUSTED_KEYS: testKeysDir(), PP_LOG_LEVEL: 'warn' } });
  const opened = await openServices(config);
  try {
    const { services } = opened;
    const now = services.clock.now();
    const owner = await createUser(services.meta, { email: OWNER_EMAIL, password: OWNER_PASSWORD, name: 'Owner' }, now);
    const analyst = await createUser(services.meta, { email: 'analyst@hardening.test', name: 'Analyst' }, now);
    const org = createOrganization(services.meta, 'Hardening', now);
    addMembership(services.meta, org.id, owner.id, 'owner', now);
    addMembership(services.meta, org.id, analyst.id, 'analyst', now);
    const project = createProject(services.meta, { orgId: org.id, name: 'Loaded', timezone: 'Europe/Moscow' }, now);
    const expires = new Date(now.getTime() + 30 * DAY_MS).toISOString();
    const browser = issueIngestKey(services, project.id, { type: 'browser', name: 'site', domains: ['example.com'], expires_at: expires }, owner.id);
    const server = issueIngestKey(services, project.id, { type: 'server', name: 'backend' }, owner.id);
    await services.license.apply(await signTestLicense(now));
    return {
      orgId: org.id,
      ownerId: owner.id,
      analystId: analyst.id,
      projectId: project.id,
      browserKey: { id: browser.key.id, value: browser.value, prefix: browser.key.public_id },
      serverKey: { id: server.key.id, value: server.value, prefix: server.key.public_id },
    };
  } finally {
    await opened.close();
  }
}

async function send(base: string, token: string | null, method: string, urlPath: string, options: SendOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  const credential = options.token === undefined ? token : options.token;
  if (credential) headers.authorization = `Bearer ${credential}`;
  let body = options.raw;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const started = performance.now();
  try {
    const res = await fetch(base + urlPath, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_LIMIT_MS) });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, ms: performance.now() - started, text, body: parsed };
  } catch (err) {
    return { status: 0, ms: performance.now() - started, text: String(err), body: null };
  }
}

/**
 * SIGTERM, and SIGKILL when the server does not go within five seconds: a server whose event loop
 * a worst case has stalled cannot run its shutdown.
 */
async function stopProcess(child: ChildProcess, dataDir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  await rm(dataDir, { recursive: true, force: true });
}

/** A week of page views, clicks with element chains, sign-ups and purchases from 60 people. */
async function seedEvents(server: LoadedServer): Promise<void> {
  const now = Date.now();
  const pages = ['/', '/pricing', '/docs/start', '/users/42/settings', '/checkout'];
  const events: unknown[] = [];
  for (let p = 0; p < 60; p++) {
    const person = { anonymous_id: `anon-${p}`, user_id: p % 3 === 0 ? `user-${p}` : null, session_id: `s-${p}` };
    for (let k = 0; k < 6; k++) {
      const ts = new Date(now - ((p * 7 + k * 13) % 7) * DAY_MS - k * 60_000).toISOString();
      const page = pages[(p + k) % pages.length]!;
      events.push({ event: 'pp.page_view', ts, url: SITE + page, ...person });
      if (k % 2 === 0) {
        events.push({ event: 'pp.click', ts, url: SITE + page, elements: [{ tag: 'button', id: 'buy', classes: ['cta'], text: 'Buy' }, { tag: 'main' }], ...person });
      }
      if (k === 3) events.push({ event: 'signup', ts, url: SITE + page, props: { plan: p % 2 ? 'pro' : 'free' }, ...person });
      if (k === 5 && p % 4 === 0) events.push({ event: 'purchase', ts, props: { revenue: 100 + p }, ...person });
    }
  }
  for (let i = 0; i < events.length; i += 500) {
    const res = await server.send('POST', '/v1/track', { token: server.serverKey.value, body: { events: events.slice(i, i + 500) } });
    if (res.status !== 202) throw new Error(`seed events refused: ${res.status} ${res.text}`);
  }
}

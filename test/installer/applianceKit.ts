// Helpers for the end-to-end appliance test: running an installed release's ppctl, a free port, and
// a client that signs in, issues a server key and sends events the way an integration would.

import { spawn } from 'node:child_process';
export { freePort } from '../support/freePort.js';
import { outputOf, type CliResult } from '../support/ppctl.js';
import { request } from '../support/testServer.js';

export type Run = CliResult;

/** Runs a program (an installed `ppctl`, `unshare`, …) with the caller's environment minus PP_* settings. */
export function runProgram(command: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))) as Record<string, string>;
  return outputOf(spawn(command, args, { env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/** A minor version step up: 0.1.0 → 0.2.0 (n = 1), 0.3.0 (n = 2). */
export function newerVersion(version: string, n: number): string {
  const [major, minor] = version.split('.').map(Number) as [number, number];
  return `${major}.${minor + n}.0`;
}

export class IngestClient {
  private key: string | undefined;
  sent = 0;

  constructor(private readonly base: string) {}

  /** Signs in as the owner and issues a server key for the project. */
  async connect(email: string, password: string, projectId: number): Promise<void> {
    const login = await request(this.base, 'POST', '/api/v1/auth/login', { body: { email, password } });
    if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);
    const token = (login.body as { access_token: string }).access_token;
    const key = await request(this.base, 'POST', `/api/v1/projects/${projectId}/keys`, { token, body: { type: 'server', name: 'appliance test' } });
    if (key.status !== 201) throw new Error(`key issue answered ${key.status}: ${key.text}`);
    this.key = (key.body as { value: string }).value;
  }

  /** Sends one batch; resolves once the server acknowledged it (202, so it is durable). */
  async track(n: number, event = 'appliance.test'): Promise<void> {
    const events = Array.from({ length: n }, (_, i) => ({ event, user_id: `user-${(this.sent + i) % 50}`, props: { i: this.sent + i } }));
    const res = await request(this.base, 'POST', '/v1/track', { headers: { authorization: `Bearer ${this.key}` }, body: { events } });
    if (res.status !== 202 || (res.body as { accepted: number }).accepted !== n) throw new Error(`track answered ${res.status}: ${res.text}`);
    this.sent += n;
  }
}

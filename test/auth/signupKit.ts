// Shared pieces of the trial-first signup tests: a cloud server with a real SMTP sink, unique company
// and free-provider addresses, a distinct client address per signup (one proxy hop is trusted, so the
// last X-Forwarded-For entry is the client), and the code and link read from the delivered email.

import type { Test } from 'tap';
import { startTestServer, type HttpResult, type TestServer } from '../support/testServer.js';
import { linkToken, startSmtpSink, type SinkMessage, type SmtpSink } from '../support/smtpSink.js';
import { TEST_PASSWORD } from '../support/factories.js';
import { ROOMY_LIMITS } from './authTestKit.js';

export const CLOUD = { edition: 'cloud', signup_mode: 'trial_first', trust_proxy: 1, base_url: 'https://pp.example.com' };

export interface Cloud {
  server: TestServer;
  sink: SmtpSink;
}

export async function startCloud(t: Test, settings: Record<string, unknown> = {}): Promise<Cloud> {
  const sink = await startSmtpSink(t);
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, ...CLOUD, smtp_url: sink.url, ...settings } });
  return { server, sink };
}

let sequence = 0;

/** An address at a company domain nobody else uses yet. */
export function companyEmail(label = 'ada', domain?: string): string {
  sequence += 1;
  return `${label}-${sequence}@${domain ?? `corp${process.pid}x${sequence}.test`}`;
}

export function freeEmail(label = 'free'): string {
  sequence += 1;
  return `${label}-${process.pid}-${sequence}@gmail.com`;
}

/** A client address no other signup of this process used. */
export function freshIp(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}

export function post(server: TestServer, path: string, body: unknown, ip?: string): Promise<HttpResult> {
  return server.request('POST', path, { body, headers: ip ? { 'x-forwarded-for': ip } : {} });
}

/** The `n`-th message (1-based) delivered to `email`. */
export async function mailTo(sink: SmtpSink, email: string, n = 1): Promise<SinkMessage> {
  const of = () => sink.messages.filter((m) => m.to.includes(email.toLowerCase()));
  await sink.waitFor(() => of().length >= n);
  return of()[n - 1]!;
}

/** Verification emails queued for `email` so far (the outbox holds every one, delivered or not). */
export function verificationEmails(server: TestServer, email: string): number {
  const row = server.running.services.meta.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'signup_verification' AND to_address = ?").get(email.toLowerCase()) as { n: number };
  return row.n;
}

export function codeIn(message: SinkMessage): string {
  const m = /^(\d{6})$/m.exec(message.text);
  if (!m) throw new Error(`no code in: ${message.text}`);
  return m[1]!;
}

export function tokenIn(message: SinkMessage): string {
  return linkToken(message, '/signup/verify');
}

export interface Pending {
  email: string;
  ip: string;
  code: string;
  token: string;
  message: SinkMessage;
}

/** Registers in trial-first mode (expects 202) and reads the code and link of the first email. */
export async function beginSignup(cloud: Cloud, body: Record<string, unknown> = {}, ip = freshIp()): Promise<Pending> {
  const email = (body.email as string | undefined) ?? companyEmail();
  const res = await post(cloud.server, '/api/v1/auth/register', { email, password: TEST_PASSWORD, ...body }, ip);
  if (res.status !== 202) throw new Error(`register: ${res.status} ${res.text}`);
  const message = await mailTo(cloud.sink, email, verificationEmails(cloud.server, email));
  return { email, ip, code: codeIn(message), token: tokenIn(message), message };
}

/** Registers and verifies with the code; returns the 201 response. */
export async function signUp(cloud: Cloud, body: Record<string, unknown> = {}, ip = freshIp()): Promise<HttpResult> {
  const pending = await beginSignup(cloud, body, ip);
  const res = await post(cloud.server, '/api/v1/auth/register/verify', { email: pending.email, code: pending.code }, ip);
  if (res.status !== 201) throw new Error(`verify: ${res.status} ${res.text}`);
  return res;
}

export function count(server: TestServer, table: string): number {
  return (server.running.services.meta.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
}

export function subscriptionOf(server: TestServer, orgId: number): { status: string; trial_state: string } | undefined {
  return server.running.services.meta.prepare('SELECT status, trial_state FROM subscriptions WHERE org_id = ?').get(orgId) as { status: string; trial_state: string } | undefined;
}

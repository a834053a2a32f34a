// Factories that create accounts through the same domain functions the routes call.

import type { TestServer } from './testServer.js';
import { insertUser, type User } from '../../server/accounts/users.js';
import { hashPassword } from '../../server/ground/passwords.js';
import { addMembership, createOrganization, type Organization } from '../../server/accounts/organizations.js';
import { createProject, type Project } from '../../server/accounts/projects.js';
import type { Role } from '../../server/access/roles.js';
import { createSession } from '../../server/auth/sessions.js';
import { issueAccessToken } from '../../server/auth/accessTokens.js';

let sequence = 0;

export const TEST_PASSWORD = 'Correct-Horse-9';

export function uniqueEmail(label = 'user'): string {
  sequence += 1;
  return `${label}-${process.pid}-${sequence}@example.test`;
}

export interface Tenant {
  owner: User;
  org: Organization;
  project: Project;
}

/**
 * Each password's argon2id hash, made once per test process: a hash costs 0.1 s to most of a
 * second of CPU on purpose, and the suite's files create hundreds of accounts with the same
 * password. Every account gets a real hash of its password (as createUser stores it); the accounts
 * of one process share its salt.
 */
const hashes = new Map<string, Promise<string>>();
function hashOf(password: string): Promise<string> {
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  return hashes.get(password)!;
}

/** `password: null` creates an account without a password (as external sign-in does). */
export async function createTestUser(server: TestServer, options: { email?: string; password?: string | null } = {}): Promise<User> {
  const { meta, clock } = server.running.services;
  const passwordHash = options.password === null ? null : await hashOf(options.password ?? TEST_PASSWORD);
  return insertUser(meta, { email: options.email ?? uniqueEmail(), passwordHash }, clock.now());
}

export async function createTenant(server: TestServer, options: { timezone?: string } = {}): Promise<Tenant> {
  const { meta, clock } = server.running.services;
  const owner = await createTestUser(server, { email: uniqueEmail('owner') });
  const org = createOrganization(meta, 'Test org', clock.now());
  addMembership(meta, org.id, owner.id, 'owner', clock.now());
  const project = createProject(meta, { orgId: org.id, name: 'Test project', timezone: options.timezone }, clock.now());
  return { owner, org, project };
}

export async function addMember(server: TestServer, org: Organization, role: Role, options: { password?: string | null } = {}): Promise<User> {
  const { meta, clock } = server.running.services;
  const user = await createTestUser(server, { email: uniqueEmail(role), password: options.password });
  addMembership(meta, org.id, user.id, role, clock.now());
  return user;
}

/** An access token for a member, minted the way sign-in mints it (a new session). */
export async function accessTokenFor(server: TestServer, user: User, org: Organization): Promise<string> {
  const services = server.running.services;
  const sessionId = createSession(services, { userId: user.id, orgId: org.id });
  return issueAccessToken(services, { userId: user.id, orgId: org.id, sessionId });
}

export interface HttpLogin {
  status: number;
  body: any;
  /** The access token of a successful sign-in. */
  token?: string;
  /** `pp_rt=<value>`, ready for a Cookie header, when a refresh cookie was set. */
  cookie?: string;
}

/** `pp_rt=<value>` from a response's Set-Cookie header, if it sets one. */
export function refreshCookieFrom(headers: Headers): string | undefined {
  const set = headers.getSetCookie().find((c) => c.startsWith('pp_rt='));
  return set?.split(';')[0];
}

/**
 * Signs in through POST /api/v1/auth/login, as a browser would. The sign-in group allows 10 attempts a
 * minute per address by default; tests that sign in more often raise `rate_limit.auth_ip_per_minute`.
 */
export async function login(server: TestServer, email: string, password: string, extra: { org_id?: number; mfa_code?: string } = {}): Promise<HttpLogin> {
  const res = await server.request('POST', '/api/v1/auth/login', { body: { email, password, ...extra } });
  return { status: res.status, body: res.body, token: res.body?.access_token, cookie: refreshCookieFrom(res.headers) };
}

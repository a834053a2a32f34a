// Shared pieces of the single sign-on tests: a pp server whose clock starts at the real time (the
// identity provider stamps its tokens with the real time), an organization whose owner configures the
// provider over HTTP, and the browser's round trip from start to pp's callback.

import type { Test } from 'tap';
import { startTestServer, type HttpResult, type TestServer } from '../../support/testServer.js';
import { accessTokenFor, createTenant, createTestUser, type Tenant } from '../../support/factories.js';
import { addMembership } from '../../../server/accounts/organizations.js';
import type { Role } from '../../../server/access/roles.js';
import type { User } from '../../../server/accounts/users.js';
import { startTestIdp, type TestIdp, type TestIdpOptions } from '../../support/oidcProvider.js';
import { ROOMY_LIMITS } from '../authTestKit.js';

export const CALLBACK_PATH = '/api/v1/auth/oidc/callback';

export interface SsoSetup {
  server: TestServer;
  idp: TestIdp;
  tenant: Tenant;
  ownerToken: string;
}

/**
 * The test identity providers listen on loopback over http, which pp refuses unless the operator
 * allows private issuers; issuerAddresses.test.ts checks the refusal itself.
 */
export async function startSsoServer(t: Test, settings: Record<string, unknown> = {}): Promise<TestServer> {
  return startTestServer(t, { now: new Date(), settings: { ...ROOMY_LIMITS, 'oidc.allow_private_issuers': true, ...settings } });
}

/** A server, an organization and a running identity provider, not yet connected. */
export async function ssoSetup(t: Test, idpOptions: Partial<TestIdpOptions> = {}, settings: Record<string, unknown> = {}): Promise<SsoSetup> {
  const server = await startSsoServer(t, settings);
  const idp = await startTestIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}`, ...idpOptions });
  const tenant = await createTenant(server);
  const ownerToken = await accessTokenFor(server, tenant.owner, tenant.org);
  return { server, idp, tenant, ownerToken };
}

export function providerBody(idp: { issuer: string; clientId: string; clientSecret: string }, extra: Record<string, unknown> = {}) {
  return { issuer: idp.issuer, client_id: idp.clientId, client_secret: idp.clientSecret, domains: ['acme.test'], enabled: true, ...extra };
}

export async function configureProvider(setup: SsoSetup, extra: Record<string, unknown> = {}): Promise<HttpResult> {
  const res = await setup.server.request('PUT', `/api/v1/orgs/${setup.tenant.org.id}/oidc`, { token: setup.ownerToken, body: providerBody(setup.idp, extra) });
  if (res.status !== 200) throw new Error(`PUT oidc: ${res.status} ${res.text}`);
  return res;
}

/** POST /auth/oidc/start and the provider's sign-in as `accountId`; returns pp's callback URL (path and query). */
export async function throughProvider(setup: SsoSetup, accountId: string, start: Record<string, unknown> = { email: `${accountId}@acme.test` }): Promise<string> {
  const res = await setup.server.request('POST', '/api/v1/auth/oidc/start', { body: start });
  if (res.status !== 200) throw new Error(`start: ${res.status} ${res.text}`);
  const back = await setup.idp.signIn(res.body.authorization_url, accountId);
  return back.pathname + back.search;
}

export function callback(server: TestServer, pathAndQuery: string): Promise<HttpResult> {
  return server.request('GET', pathAndQuery);
}

/** The single-sign-on refusals logged since `from`, by reason. */
export function refusals(server: TestServer, from = 0): string[] {
  return server.logs
    .slice(from)
    .filter((l) => typeof l.reason === 'string' && String(l.msg).startsWith('single sign-on refused'))
    .map((l) => String(l.reason));
}

/** A passwordless account with this email, a member of the setup's organization with `role`. */
export async function memberWithEmail(setup: SsoSetup, email: string, role: Role = 'analyst'): Promise<User> {
  const { meta, clock } = setup.server.running.services;
  const user = await createTestUser(setup.server, { email, password: null });
  addMembership(meta, setup.tenant.org.id, user.id, role, clock.now());
  return user;
}

// The main-API rows of the wrong-credential matrix, on a route of every account group: nothing, an
// ingestion key, a release token, an expired or revoked access token and other bad tokens are all 401
// `unauthorized` with one message; a role too low is 403 `forbidden`; another organization's project 404.

import t from 'tap';
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createSession, revokeSession } from '../../server/auth/sessions.js';
import { issueAccessToken } from '../../server/auth/accessTokens.js';
import { deriveKey } from '../../server/ground/secretKeys.js';
import { removeMembership } from '../../server/accounts/organizations.js';

const UNAUTHORIZED = { error: { code: 'unauthorized', message: 'authentication required', details: {} } };
const alnum = (n: number) => randomBytes(n).toString('hex').slice(0, n);

// These members act through minted access tokens and need no password (nor its argon2 cost).
const NO_PASSWORD = { password: null };

t.test('wrong credentials on the main API', async (t) => {
  const server = await startTestServer(t);
  const services = server.running.services;
  const { owner, org, project } = await createTenant(server);
  const foreign = await createTenant(server);

  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/v1/me'],
    ['GET', '/api/v1/me/sessions'],
    ['POST', '/api/v1/me/mfa/setup'],
    ['PATCH', `/api/v1/orgs/${org.id}`, { name: 'x' }],
    ['GET', `/api/v1/orgs/${org.id}/members`],
    ['GET', `/api/v1/orgs/${org.id}/invites`],
    ['GET', '/api/v1/projects'],
    ['GET', `/api/v1/projects/${project.id}`],
    ['DELETE', `/api/v1/projects/${project.id}`],
  ];

  const expiredSession = createSession(services, { userId: owner.id, orgId: org.id });
  const expired = await issueAccessToken(services, { userId: owner.id, orgId: org.id, sessionId: expiredSession });
  const revokedSession = createSession(services, { userId: owner.id, orgId: org.id });
  const revoked = await issueAccessToken(services, { userId: owner.id, orgId: org.id, sessionId: revokedSession });
  revokeSession(services, revokedSession);
  const removed = await addMember(server, org, 'admin', NO_PASSWORD);
  const removedToken = await accessTokenFor(server, removed, org);
  removeMembership(services.meta, org.id, removed.id);
  const now = Math.floor(server.clock.now().getTime() / 1000);
  const forged = await new SignJWT({ org: org.id, sid: revokedSession })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(owner.id))
    .setIssuer('pp')
    .setAudience('pp-api')
    .setIssuedAt(now)
    .setExpirationTime(now + 600)
    .sign(randomBytes(32));
  // Signed with the real key but claiming a lifetime of a day, or no issue time: the verifier holds
  // the 15-minute limit itself.
  const realKey = deriveKey(services.secret, 'access-token');
  const claimsFor = (sid: string) => new SignJWT({ org: org.id, sid }).setProtectedHeader({ alg: 'HS256' }).setSubject(String(owner.id)).setIssuer('pp').setAudience('pp-api');
  const longLived = await claimsFor(createSession(services, { userId: owner.id, orgId: org.id }))
    .setIssuedAt(now)
    .setExpirationTime(now + 86_400)
    .sign(realKey);
  const undated = await claimsFor(createSession(services, { userId: owner.id, orgId: org.id }))
    .setExpirationTime(now + 16 * 60 + 600)
    .sign(realKey);
  // Past the 15-minute lifetime every token issued above has expired; the live ones are issued after the jump.
  server.clock.advance(15 * 60_000 + 1000);
  const liveSession = createSession(services, { userId: owner.id, orgId: org.id });
  const live = await issueAccessToken(services, { userId: owner.id, orgId: org.id, sessionId: liveSession });
  // Issue times ahead of the clock: an hour is a forgery or a broken clock; 30 seconds is a clock
  // stepped back since the token was issued, and logs nobody out.
  const later = now + 15 * 60 + 1;
  const fromTheFuture = await claimsFor(liveSession)
    .setIssuedAt(later + 3600)
    .setExpirationTime(later + 3600 + 600)
    .sign(realKey);
  const slightlyAhead = await claimsFor(liveSession)
    .setIssuedAt(later + 30)
    .setExpirationTime(later + 30 + 600)
    .sign(realKey);
  const noSuchSession = await issueAccessToken(services, { userId: owner.id, orgId: org.id, sessionId: '00000000-0000-4000-8000-000000000000' });

  const credentials: Array<[string, Record<string, string>]> = [
    ['nothing', {}],
    ['a server ingestion key', { authorization: `Bearer pp_sk_${alnum(8)}${alnum(32)}` }],
    ['a browser ingestion key', { authorization: `Bearer pp_bt_${alnum(8)}${alnum(32)}` }],
    ['a release token', { authorization: `Bearer pp_rel_${alnum(8)}${alnum(32)}` }],
    ['an expired access token', { authorization: `Bearer ${expired}` }],
    ['a revoked session', { authorization: `Bearer ${revoked}` }],
    ['a removed member', { authorization: `Bearer ${removedToken}` }],
    ['a token signed with another key', { authorization: `Bearer ${forged}` }],
    ['a token claiming a day-long lifetime', { authorization: `Bearer ${longLived}` }],
    ['a token without an issue time', { authorization: `Bearer ${undated}` }],
    ['a token issued an hour from now', { authorization: `Bearer ${fromTheFuture}` }],
    ['a session that never existed', { authorization: `Bearer ${noSuchSession}` }],
    ['a Basic header', { authorization: `Basic ${Buffer.from(`${owner.email}:x`).toString('base64')}` }],
    ['a token in the query string only', {}],
  ];

  for (const [label, headers] of credentials) {
    for (const [method, path, body] of routes) {
      const url = label === 'a token in the query string only' ? `${path}?access_token=${live}` : path;
      const res = await server.request(method, url, { headers, body });
      t.equal(res.status, 401, `${label}: ${method} ${path}`);
      t.same(res.body, UNAUTHORIZED, `${label}: one message whatever the reason`);
    }
  }

  t.test('the live token still works, so the 401s above were about the credential', async (t) => {
    t.equal((await server.request('GET', '/api/v1/me', { token: live })).status, 200);
  });

  t.test('a token issued 30 seconds ahead of the clock still works (a clock stepped back)', async (t) => {
    t.equal((await server.request('GET', '/api/v1/me', { token: slightlyAhead })).status, 200);
  });

  t.test('a role too low is 403 forbidden', async (t) => {
    const viewer = await accessTokenFor(server, await addMember(server, org, 'viewer', NO_PASSWORD), org);
    const adminRoutes = routes.filter(([method, path]) => path.startsWith('/api/v1/orgs/') || (path.startsWith('/api/v1/projects/') && method !== 'GET'));
    t.equal(adminRoutes.length, 4);
    for (const [method, path, body] of adminRoutes) {
      const res = await server.request(method, path, { token: viewer, body });
      t.equal(res.status, 403, `${method} ${path}`);
      t.equal(res.body.error.code, 'forbidden');
    }
  });

  t.test("another organization's project or organization is 404 not_found", async (t) => {
    for (const [method, path] of [
      ['GET', `/api/v1/projects/${foreign.project.id}`],
      ['PATCH', `/api/v1/projects/${foreign.project.id}`],
      ['DELETE', `/api/v1/projects/${foreign.project.id}`],
      ['GET', `/api/v1/orgs/${foreign.org.id}/members`],
      ['GET', `/api/v1/orgs/${foreign.org.id}/invites`],
    ] as const) {
      const res = await server.request(method, path, { token: live, body: method === 'PATCH' ? { name: 'x' } : undefined });
      t.equal(res.status, 404, `${method} ${path}`);
      t.equal(res.body.error.code, 'not_found');
    }
  });
});

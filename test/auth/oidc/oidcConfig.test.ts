// The owner's configuration of the organization's identity provider: PUT checks the issuer for real
// (discovery and key set fetched from a running provider), GET never shows the secret, DELETE removes
// it; a domain belongs to one enabled organization only; changes land in the audit log.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t from 'tap';
import { listAudit } from '../../../server/audit/recordAudit.js';
import { clientSecretOf } from '../../../server/auth/oidc/oidcProviders.js';
import { accessTokenFor, addMember, createTenant } from '../../support/factories.js';
import { startScriptedIdp } from '../../support/scriptedIdp.js';
import { CALLBACK_PATH, providerBody, ssoSetup, startSsoServer } from './oidcKit.js';
import { startTestIdp } from '../../support/oidcProvider.js';

const setup = await ssoSetup(t);
const { server, idp, tenant, ownerToken } = setup;
const services = server.running.services;
const path = `/api/v1/orgs/${tenant.org.id}/oidc`;
const put = (body: unknown, token = ownerToken, at = path) => server.request('PUT', at, { token, body });

async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

t.test('401 without a token', async (t) => {
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await server.request(method, path, { body: method === 'PUT' ? providerBody(idp) : undefined });
    t.equal(res.status, 401, method);
    t.equal(res.body.error.code, 'unauthorized');
  }
});

t.test('422 for a body that cannot describe a provider, with the exact reason', async (t) => {
  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['no issuer', { issuer: undefined }, 'invalid request body: issuer is required', 'issuer'],
    ['unknown field', { secret: 'x' }, 'invalid request body: secret is not a known field', 'secret'],
    ['no domains', { domains: [] }, 'invalid request body: domains must NOT have fewer than 1 items', 'domains'],
    ['owner by JIT', { jit: { enabled: true, default_role: 'owner' } }, 'invalid request body: jit.default_role must be one of "viewer", "analyst", "admin"', 'jit.default_role'],
    ['not http', { issuer: 'ftp://sso.acme.test' }, 'issuer must be an absolute http(s) URL', 'issuer'],
    ['query in issuer', { issuer: `${idp.issuer}?realm=x` }, 'issuer must not carry a query, fragment or credentials', 'issuer'],
    ['wildcard domain', { domains: ['*.acme.test'] }, 'domains[0] must be a domain name such as example.com (no @, scheme or wildcard), got "*.acme.test"', 'domains[0]'],
    ['email as domain', { domains: ['acme.test', 'bob@acme.test'] }, 'domains[1] must be a domain name such as example.com (no @, scheme or wildcard), got "bob@acme.test"', 'domains[1]'],
    ['no secret on the first save', { client_secret: undefined }, 'client_secret is required when the organization has no provider yet', 'client_secret'],
  ];
  for (const [name, change, message, field] of cases) {
    const res = await put(providerBody(idp, change));
    t.equal(res.status, 422, name);
    t.equal(res.body.error.message, message, name);
    t.equal(res.body.error.details.field, field, name);
  }
});

t.test('422 when the issuer cannot be reached or does not describe a usable provider', async (t) => {
  const port = await closedPort();
  const unreachable = await put(providerBody(idp, { issuer: `http://127.0.0.1:${port}` }));
  t.equal(unreachable.status, 422);
  t.equal(
    unreachable.body.error.message,
    `issuer could not be verified: the discovery document could not be fetched: http://127.0.0.1:${port}/.well-known/openid-configuration could not be reached or did not answer within 5000 ms`,
  );
  t.equal(unreachable.body.error.details.field, 'issuer');

  const slash = await put(providerBody(idp, { issuer: `${idp.issuer}/` }));
  t.equal(
    slash.body.error.message,
    `issuer could not be verified: the discovery document at ${idp.issuer}/.well-known/openid-configuration names the issuer "${idp.issuer}", not "${idp.issuer}/"; use exactly the issuer it names`,
  );
  const missing = await put(providerBody(idp, { issuer: `${idp.issuer}/nowhere` }));
  t.equal(missing.body.error.message, `issuer could not be verified: the discovery document could not be fetched: ${idp.issuer}/nowhere/.well-known/openid-configuration answered 404`);

  const scripted = await startScriptedIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });
  const attempt = async (change: () => void) => {
    scripted.discoveryOverrides = {};
    scripted.jwksOverride = undefined;
    change();
    const res = await put(providerBody(scripted, { domains: ['scripted.test'] }));
    t.equal(res.status, 422);
    return res.body.error.message as string;
  };
  const accepted = 'RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA, Ed25519';
  t.equal(
    await attempt(() => (scripted.discoveryOverrides = { id_token_signing_alg_values_supported: ['HS256', 'none'] })),
    `issuer could not be verified: the provider at ${scripted.issuer} signs ID tokens only with HS256, none; pp accepts ${accepted}`,
  );
  t.equal(
    await attempt(() => (scripted.discoveryOverrides = { code_challenge_methods_supported: ['plain'] })),
    `issuer could not be verified: the provider at ${scripted.issuer} does not support PKCE with S256 (code_challenge_methods_supported)`,
  );
  t.equal(
    await attempt(() => (scripted.discoveryOverrides = { token_endpoint_auth_methods_supported: ['private_key_jwt'] })),
    `issuer could not be verified: the provider at ${scripted.issuer} accepts neither client_secret_basic nor client_secret_post at its token endpoint`,
  );
  t.equal(
    await attempt(() => (scripted.discoveryOverrides = { token_endpoint: undefined })),
    `issuer could not be verified: the discovery document at ${scripted.issuer}/.well-known/openid-configuration has no valid token_endpoint`,
  );
  t.equal(
    await attempt(() => (scripted.jwksOverride = { keys: [{ kty: 'oct', k: 'c2VjcmV0', alg: 'HS256' }] })),
    `issuer could not be verified: the key set at ${scripted.issuer}/jwks has no signing key for ${accepted}`,
  );
  t.equal(await attempt(() => (scripted.jwksOverride = [])), `issuer could not be verified: the key set (jwks_uri) at ${scripted.issuer}/jwks is not a JSON object`);
  t.equal(await services.meta.prepare('SELECT count(*) FROM oidc_providers').pluck().get(), 0, 'nothing was saved');
});

t.test('422 when the issuer answers too slowly', async (t) => {
  const slowServer = await startSsoServer(t, { 'oidc.http_timeout_ms': 200 });
  const scripted = await startScriptedIdp(t, { redirectUri: `${slowServer.url}${CALLBACK_PATH}` });
  scripted.discoveryDelayMs = 1000;
  const tenant = await createTenant(slowServer);
  const res = await slowServer.request('PUT', `/api/v1/orgs/${tenant.org.id}/oidc`, {
    token: await accessTokenFor(slowServer, tenant.owner, tenant.org),
    body: providerBody(scripted),
  });
  t.equal(res.status, 422);
  t.equal(
    res.body.error.message,
    `issuer could not be verified: the discovery document could not be fetched: ${scripted.issuer}/.well-known/openid-configuration could not be reached or did not answer within 200 ms`,
  );
});

t.test("403 for an admin: the provider is the owner's to change and to see", async (t) => {
  const admin = await addMember(server, tenant.org, 'admin', { password: null });
  const token = await accessTokenFor(server, admin, tenant.org);
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await server.request(method, path, { token, body: method === 'PUT' ? providerBody(idp) : undefined });
    t.equal(res.status, 403, method);
    t.equal(res.body.error.message, 'this action needs the owner role or higher');
  }
});

t.test('404 for another organization; none configured is a plain answer, removing it a 404', async (t) => {
  const other = await createTenant(server);
  for (const method of ['GET', 'PUT', 'DELETE']) {
    const res = await server.request(method, `/api/v1/orgs/${other.org.id}/oidc`, { token: ownerToken, body: method === 'PUT' ? providerBody(idp) : undefined });
    t.equal(res.status, 404, method);
  }
  const none = await server.request('GET', path, { token: ownerToken });
  t.equal(none.status, 200);
  t.same(none.body, { configured: false, redirect_uri: `${server.url}/api/v1/auth/oidc/callback` });
  const remove = await server.request('DELETE', path, { token: ownerToken });
  t.equal(remove.status, 404);
  t.equal(remove.body.error.message, 'single sign-on is not configured for this organization');
});

t.test('saved, shown without the secret, updated keeping the secret, removed', async (t) => {
  const saved = await put(providerBody(idp, { domains: ['ACME.test.', 'acme.test', 'Beta.Acme.test'], jit: { enabled: true } }));
  t.equal(saved.status, 200);
  const expected = {
    configured: true,
    org_id: tenant.org.id,
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret_set: true,
    domains: ['acme.test', 'beta.acme.test'],
    enabled: true,
    jit: { enabled: true, default_role: 'viewer' },
    redirect_uri: `${server.url}/api/v1/auth/oidc/callback`,
  };
  t.match(saved.body, expected);
  const shown = await server.request('GET', path, { token: ownerToken });
  t.equal(shown.status, 200);
  t.same(shown.body, saved.body);
  t.notMatch(shown.text, idp.clientSecret);

  const row = services.meta.prepare('SELECT * FROM oidc_providers WHERE org_id = ?').get(tenant.org.id) as Record<string, string>;
  t.notMatch(JSON.stringify(row), idp.clientSecret, 'the secret is not stored in the clear');
  t.match(row.client_secret_sealed, /^v1\./);
  t.equal(clientSecretOf(services, tenant.org.id), idp.clientSecret, 'it opens with the server key');
  t.notMatch(JSON.stringify(server.logs), idp.clientSecret, 'nor logged');

  const updated = await put(providerBody(idp, { client_secret: undefined, enabled: false }));
  t.equal(updated.status, 200);
  t.match(updated.body, { enabled: false, jit: { enabled: false, default_role: 'viewer' }, domains: ['acme.test'] });
  t.equal(clientSecretOf(services, tenant.org.id), idp.clientSecret, 'a PUT without client_secret keeps the stored one');
  await put(providerBody(idp, { client_secret: 'a-new-secret' }));
  t.equal(clientSecretOf(services, tenant.org.id), 'a-new-secret');

  const removed = await server.request('DELETE', path, { token: ownerToken });
  t.equal(removed.status, 204);
  t.same((await server.request('GET', path, { token: ownerToken })).body, { configured: false, redirect_uri: `${server.url}/api/v1/auth/oidc/callback` });
  t.equal(services.meta.prepare('SELECT count(*) FROM oidc_domains WHERE org_id = ?').pluck().get(tenant.org.id), 0);

  const audit = listAudit(services, { orgId: tenant.org.id }).filter((e) => e.action.startsWith('org.oidc.'));
  t.same(audit.map((e) => [e.action, e.actor_user_id, e.outcome, e.target]).reverse(), [
    ['org.oidc.create', tenant.owner.id, 'success', idp.issuer],
    ['org.oidc.update', tenant.owner.id, 'success', idp.issuer],
    ['org.oidc.update', tenant.owner.id, 'success', idp.issuer],
    ['org.oidc.delete', tenant.owner.id, 'success', idp.issuer],
  ]);
  t.same(audit.map((e) => e.details.client_secret_changed).reverse(), [true, false, true, undefined]);
  t.notMatch(JSON.stringify(audit), /a-new-secret/);
});

t.test('409: a domain belongs to one organization with enabled single sign-on', async (t) => {
  t.equal((await put(providerBody(idp, { domains: ['acme.test', 'shared.test'] }))).status, 200);
  const other = await createTenant(server);
  const otherToken = await accessTokenFor(server, other.owner, other.org);
  const otherPath = `/api/v1/orgs/${other.org.id}/oidc`;
  const otherIdp = await startTestIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });

  const clash = await put(providerBody(otherIdp, { domains: ['Shared.test', 'other.test'] }), otherToken, otherPath);
  t.equal(clash.status, 409);
  t.equal(clash.body.error.message, 'the domain shared.test already belongs to another organization with single sign-on enabled');
  t.same(clash.body.error.details.domains, ['shared.test']);
  t.match((await server.request('GET', otherPath, { token: otherToken })).body, { configured: false }, 'nothing saved');

  t.equal((await put(providerBody(otherIdp, { domains: ['shared.test', 'other.test'], enabled: false }), otherToken, otherPath)).status, 200, 'a disabled provider may list it');
  t.equal((await put(providerBody(idp, { client_secret: undefined, domains: ['acme.test', 'shared.test'], enabled: false }))).status, 200);
  t.equal((await put(providerBody(otherIdp, { client_secret: undefined, domains: ['shared.test', 'other.test'] }), otherToken, otherPath)).status, 200, 'free once the first one is disabled');
  const back = await put(providerBody(idp, { client_secret: undefined, domains: ['acme.test', 'shared.test'] }));
  t.equal(back.status, 409, 'and now the first cannot enable it again');
});

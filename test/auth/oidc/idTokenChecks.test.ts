// The ID token checks against a provider that misbehaves on purpose (test/support/scriptedIdp.ts):
// the code exchange is real (client secret, PKCE verifier), but the token that comes back is tampered
// with, unsigned, for someone else, expired… Each one must end in the same 401, its reason logged.

import t from 'tap';
import { findUserByEmail } from '../../../server/accounts/users.js';
import { startScriptedIdp, type IdTokenFault } from '../../support/scriptedIdp.js';
import { createTenant, accessTokenFor } from '../../support/factories.js';
import { listAudit } from '../../../server/audit/recordAudit.js';
import { CALLBACK_PATH, providerBody, refusals, startSsoServer } from './oidcKit.js';

const server = await startSsoServer(t);
const services = server.running.services;
const idp = await startScriptedIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });
const tenant = await createTenant(server);
const saved = await server.request('PUT', `/api/v1/orgs/${tenant.org.id}/oidc`, {
  token: await accessTokenFor(server, tenant.owner, tenant.org),
  body: providerBody(idp, { jit: { enabled: true, default_role: 'analyst' } }),
});
if (saved.status !== 200) throw new Error(`PUT oidc: ${saved.status} ${saved.text}`);

async function signInWith(fault: IdTokenFault) {
  idp.fault = fault;
  const start = await server.request('POST', '/api/v1/auth/oidc/start', { body: { email: idp.identity.email } });
  const back = await idp.signIn(start.body.authorization_url);
  const from = server.logs.length;
  const res = await server.request('GET', back.pathname + back.search);
  const logged = server.logs.slice(from).find((l) => typeof l.reason === 'string');
  return { res, reasons: refusals(server, from), detail: String(logged?.detail ?? '') };
}

t.test('a well-formed token from this provider signs in (the client secret goes in the form, as its discovery asks)', async (t) => {
  const { res } = await signInWith('none');
  t.equal(res.status, 303);
  t.ok(findUserByEmail(services.meta, idp.identity.email), 'joined just in time');
});

t.test('each defect of the ID token: 401, with the reason in the log only', async (t) => {
  const cases: Array<[IdTokenFault, string, RegExp]> = [
    ['tampered_signature', 'id_token_invalid', /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
    ['tampered_payload', 'id_token_invalid', /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
    ['foreign_key', 'id_token_invalid', /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
    ['alg_none', 'id_token_invalid', /ERR_JOSE_ALG_NOT_ALLOWED/],
    ['wrong_audience', 'id_token_invalid', /ERR_JWT_CLAIM_VALIDATION_FAILED: unexpected "aud" claim value/],
    ['wrong_issuer', 'id_token_invalid', /ERR_JWT_CLAIM_VALIDATION_FAILED: unexpected "iss" claim value/],
    ['expired', 'id_token_invalid', /ERR_JWT_EXPIRED/],
    ['other_azp', 'id_token_invalid', /azp/],
    ['wrong_nonce', 'nonce_mismatch', /nonce/],
  ];
  for (const [fault, reason, detail] of cases) {
    const result = await signInWith(fault);
    t.equal(result.res.status, 401, fault);
    t.same(result.res.body, { error: { code: 'unauthorized', message: 'single sign-on failed', details: {} } }, fault);
    t.same(result.reasons, [reason], fault);
    t.match(result.detail, detail, fault);
    const [entry] = listAudit(services, { action: 'auth.oidc.sign_in' });
    t.match(entry, { org_id: tenant.org.id, outcome: 'failure', details: { reason } }, fault);
  }
});

t.test('a token endpoint that refuses the exchange: 401', async (t) => {
  idp.fault = 'none';
  const start = await server.request('POST', '/api/v1/auth/oidc/start', { body: { email: idp.identity.email } });
  const back = await idp.signIn(start.body.authorization_url);
  const from = server.logs.length;
  // The code was already spent by someone else: the provider answers invalid_grant.
  const code = back.searchParams.get('code')!;
  const other = await server.request('POST', '/api/v1/auth/oidc/start', { body: { email: idp.identity.email } });
  const otherBack = await idp.signIn(other.body.authorization_url);
  otherBack.searchParams.set('code', code);
  t.equal((await server.request('GET', otherBack.pathname + otherBack.search)).status, 401);
  t.same(refusals(server, from), ['token_exchange_failed'], 'the PKCE verifier of another sign-in does not fit the code');
  t.match(server.logs.slice(from).find((l) => l.reason)?.detail, /answered 400 \(invalid_grant: PKCE verification failed\)/);
});

t.test('a day-old key set is fetched again before use; a provider that cannot serve it then leaves the cached one in use', async (t) => {
  idp.fault = 'none';
  idp.now = () => server.clock.now();
  t.teardown(() => {
    idp.now = () => new Date();
    idp.jwksOverride = undefined;
    server.clock.set(new Date());
  });
  const fetchedAt = () => services.meta.prepare('SELECT jwks_fetched_at FROM oidc_providers WHERE org_id = ?').pluck().get(tenant.org.id) as string;
  const keysFetched = (from: number) => server.logs.slice(from).filter((l) => l.msg === 'identity provider keys fetched again').length;

  server.clock.advance(23 * 60 * 60 * 1000);
  let from = server.logs.length;
  t.equal((await signInWith('none')).res.status, 303);
  t.equal(keysFetched(from), 0, 'under a day old: the cached keys are used');

  server.clock.advance(2 * 60 * 60 * 1000);
  from = server.logs.length;
  t.equal((await signInWith('none')).res.status, 303);
  t.equal(keysFetched(from), 1);
  t.equal(fetchedAt(), server.clock.now().toISOString());

  server.clock.advance(25 * 60 * 60 * 1000);
  idp.jwksOverride = [];
  from = server.logs.length;
  t.equal((await signInWith('none')).res.status, 303);
  t.match(
    server.logs.slice(from).find((l) => l.level === 40),
    { msg: 'identity provider keys could not be refreshed; using the cached ones', err: /not a JSON object/ },
  );
});

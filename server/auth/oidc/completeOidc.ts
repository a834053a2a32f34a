// GET /auth/oidc/callback: consumes the state, exchanges the code with the PKCE verifier, verifies the
// ID token, applies the email and domain policy and the membership rule, then signs in exactly as a
// password login does. Every refusal is logged and audited with its reason and answered with one 401.

import type { Services } from '../../http/services.js';
import { UnauthorizedError } from '../../ground/errors.js';
import { normalizeEmail } from '../../accounts/users.js';
import { recordAudit } from '../../audit/recordAudit.js';
import { signIn, type ClientInfo, type SignedIn } from '../signIn.js';
import { getOidcProvider, type OidcProvider } from './oidcProviders.js';
import { consumeOidcState } from './oidcStates.js';
import { exchangeCode, fetchUserInfo } from './tokenExchange.js';
import { verifyIdToken } from './idToken.js';
import { memberForIdentity, type OidcIdentity } from './oidcMembership.js';
import { emailDomain, oidcRedirectUri } from './startOidc.js';
import { OidcRefusal } from './oidcRefusal.js';

export const OIDC_SIGN_IN = 'auth.oidc.sign_in';

export interface CallbackQuery {
  state?: string;
  code?: string;
  error?: string;
  /** RFC 9207: the issuer that sent the browser back, when the provider says. */
  iss?: string;
}

/** What is known about the attempt so far, for the log and the audit entry. */
interface Attempt {
  orgId?: number;
  email?: string;
  ip?: string;
}

export async function completeOidcSignIn(services: Services, query: CallbackQuery, client: ClientInfo): Promise<SignedIn> {
  const attempt: Attempt = { ip: client.ip };
  try {
    const { provider, identity } = await verifiedIdentity(services, query, attempt);
    const member = memberForIdentity(services, provider, identity);
    const signedIn = await signIn(services, member.user, member.org, client);
    const details = { ip: client.ip ?? null, issuer: provider.issuer, ...(member.joined ? { jit_joined: true, role: member.org.role } : {}) };
    recordAudit(services, { actor_user_id: member.user.id, org_id: provider.org_id, action: OIDC_SIGN_IN, target: identity.email, outcome: 'success', details });
    services.log.info({ org_id: provider.org_id, user_id: member.user.id, jit_joined: member.joined }, 'single sign-on succeeded');
    return signedIn;
  } catch (err) {
    if (!(err instanceof OidcRefusal)) throw err;
    services.log.warn({ org_id: attempt.orgId ?? null, reason: err.reason, detail: err.detail }, `single sign-on refused: ${err.reason}`);
    recordAudit(services, {
      actor_user_id: err.userId,
      org_id: attempt.orgId,
      action: OIDC_SIGN_IN,
      target: attempt.email,
      outcome: 'failure',
      details: { reason: err.reason, detail: err.detail, ip: attempt.ip ?? null },
    });
    throw new UnauthorizedError('single sign-on failed');
  }
}

async function verifiedIdentity(services: Services, query: CallbackQuery, attempt: Attempt): Promise<{ provider: OidcProvider; identity: OidcIdentity }> {
  const consumed = consumeOidcState(services, query.state ?? '');
  if (consumed.status === 'unknown') throw new OidcRefusal('state_unknown', 'the state is unknown or was already used');
  attempt.orgId = consumed.orgId;
  if (consumed.status === 'expired') throw new OidcRefusal('state_expired', 'the sign-in was started more than ten minutes ago');
  if (query.error !== undefined) throw new OidcRefusal('provider_error', `the identity provider answered error=${query.error.slice(0, 200)}`);
  if (!query.code) throw new OidcRefusal('code_missing', 'the callback carries no authorization code');
  const provider = getOidcProvider(services, consumed.orgId);
  if (!provider?.enabled) throw new OidcRefusal('provider_disabled', 'single sign-on was disabled or removed for the organization after the sign-in started');
  if (query.iss !== undefined && query.iss !== provider.issuer) {
    throw new OidcRefusal('issuer_mismatch', `the browser came back from ${JSON.stringify(query.iss.slice(0, 200))}, not from the configured issuer`);
  }

  const tokens = await exchangeCode(services, provider, query.code, consumed.verifier, oidcRedirectUri(services));
  const claims = await verifyIdToken(services, provider, tokens.idToken, consumed.nonceHash);
  const source = claims.email === undefined ? await fetchUserInfo(services, provider, tokens.accessToken, claims.sub) : claims;
  if (typeof source.email !== 'string' || !source.email.includes('@')) throw new OidcRefusal('email_missing', 'the provider sent no email address');
  const email = normalizeEmail(source.email);
  attempt.email = email;
  if (source.email_verified !== true) throw new OidcRefusal('email_unverified', `the provider does not vouch for ${email} (email_verified is not true)`);
  if (!provider.domains.includes(emailDomain(email))) {
    throw new OidcRefusal('domain_not_allowed', `${emailDomain(email)} is not one of the organization's single sign-on domains`);
  }
  const name = typeof source.name === 'string' && source.name.trim() ? source.name.trim().slice(0, 200) : null;
  return { provider, identity: { email, name } };
}

// ID token checks: the signature with the provider's keys (allow-listed asymmetric algorithms only),
// issuer, audience and authorized party, expiry and the nonce. The cached key set is fetched again when
// a token names a key it does not hold (at most once a minute) and when it is a day old.

import { createLocalJWKSet, errors, jwtVerify, type CryptoKey, type JWTPayload, type JWTVerifyOptions } from 'jose';
import type { Services } from '../../http/services.js';
import { DiscoveryError, fetchJwks, type JsonWebKeySet } from './discovery.js';
import { storeJwks, type OidcProvider } from './oidcProviders.js';
import { nonceMatches } from './oidcStates.js';
import { OidcRefusal } from './oidcRefusal.js';
import { STEP_TOLERANCE_MS } from '../../ground/clock.js';

export const JWKS_REFRESH_COOLDOWN_MS = 60_000;
export const JWKS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Allowed difference between our clock and the provider's. */
export const CLOCK_TOLERANCE_SECONDS = 60;

export interface IdTokenClaims extends JWTPayload {
  sub: string;
}

export async function verifyIdToken(services: Services, provider: OidcProvider, idToken: string, storedNonceHash: string): Promise<IdTokenClaims> {
  const options: JWTVerifyOptions = {
    algorithms: provider.metadata.id_token_signing_algs,
    issuer: provider.issuer,
    audience: provider.client_id,
    currentDate: services.clock.now(),
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
  };
  let payload: JWTPayload;
  try {
    payload = await verifyWithProviderKeys(services, provider, idToken, options);
  } catch (err) {
    if (err instanceof errors.JOSEError) throw new OidcRefusal('id_token_invalid', `${err.code}: ${err.message}`);
    if (err instanceof DiscoveryError) throw new OidcRefusal('provider_unreachable', err.message);
    throw err;
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw new OidcRefusal('id_token_invalid', 'the ID token has no subject');
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((audiences.length > 1 || payload.azp !== undefined) && payload.azp !== provider.client_id) {
    throw new OidcRefusal('id_token_invalid', `the ID token was issued to ${JSON.stringify(payload.azp)} (azp), not to this client`);
  }
  if (!nonceMatches(services, storedNonceHash, payload.nonce)) throw new OidcRefusal('nonce_mismatch', 'the ID token nonce is not the one sent with this sign-in');
  return payload as IdTokenClaims;
}

async function verifyWithProviderKeys(services: Services, provider: OidcProvider, token: string, options: JWTVerifyOptions): Promise<JWTPayload> {
  const fetchedMs = Date.parse(provider.jwks_fetched_at);
  const now = services.clock.now().getTime();
  let jwks = provider.jwks;
  // Keys fetched "after now" were fetched before the clock stepped back: fetched again, not kept for the step.
  if (now - fetchedMs >= JWKS_MAX_AGE_MS || fetchedMs > now + STEP_TOLERANCE_MS) jwks = await refreshedOrCached(services, provider);
  try {
    return await verifyWithKeySet(token, jwks, options);
  } catch (err) {
    if (!(err instanceof errors.JWKSNoMatchingKey) || now - fetchedMs < JWKS_REFRESH_COOLDOWN_MS || jwks !== provider.jwks) throw err;
    // A key we do not hold: the provider has probably rotated its keys since we fetched them.
    return verifyWithKeySet(token, await refreshKeys(services, provider), options);
  }
}

async function refreshKeys(services: Services, provider: OidcProvider): Promise<JsonWebKeySet> {
  const jwks = await fetchJwks(services, provider.metadata.jwks_uri);
  storeJwks(services, provider.org_id, jwks, services.clock.now());
  services.log.info({ org_id: provider.org_id, keys: jwks.keys.map((k) => k.kid ?? null) }, 'identity provider keys fetched again');
  return jwks;
}

/** A day-old key set is refreshed, but a provider that cannot be reached just then keeps the cached one. */
async function refreshedOrCached(services: Services, provider: OidcProvider): Promise<JsonWebKeySet> {
  try {
    return await refreshKeys(services, provider);
  } catch (err) {
    if (!(err instanceof DiscoveryError)) throw err;
    services.log.warn({ org_id: provider.org_id, err: err.message }, 'identity provider keys could not be refreshed; using the cached ones');
    return provider.jwks;
  }
}

/** Several keys may fit a token without `kid`; the one whose signature checks out wins. */
async function verifyWithKeySet(token: string, jwks: JsonWebKeySet, options: JWTVerifyOptions): Promise<JWTPayload> {
  try {
    return (await jwtVerify(token, createLocalJWKSet(jwks), options)).payload;
  } catch (err) {
    if (!(err instanceof errors.JWKSMultipleMatchingKeys)) throw err;
    for await (const key of err as unknown as AsyncIterable<CryptoKey>) {
      try {
        return (await jwtVerify(token, key, options)).payload;
      } catch (inner) {
        if (!(inner instanceof errors.JWSSignatureVerificationFailed)) throw inner;
      }
    }
    throw new errors.JWSSignatureVerificationFailed();
  }
}

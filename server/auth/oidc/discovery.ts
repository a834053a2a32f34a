// Discovery: the issuer's /.well-known/openid-configuration and its key set, fetched when a provider
// is saved and the keys again when they change. Each document is checked for what sign-in needs; a
// defect is a DiscoveryError whose message speaks to the person configuring the provider.

import type { JWK } from 'jose';
import type { Services } from '../../http/services.js';
import { idpRequest, IdpRequestError } from './idpRequest.js';
import { ID_TOKEN_ALGORITHMS, isAcceptedAlgorithm, SIGNING_KEY_TYPES } from './signingAlgorithms.js';

export class DiscoveryError extends Error {}

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

/** The part of the discovery document sign-in uses, as stored with the provider. */
export interface ProviderMetadata {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint: string | null;
  token_endpoint_auth_method: ClientAuthMethod;
  /** The provider's ID token algorithms that are also on our allow-list. */
  id_token_signing_algs: string[];
}

export interface JsonWebKeySet {
  keys: JWK[];
}

export function discoveryUrl(issuer: string): string {
  return `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
}

export async function discoverProvider(services: Services, issuer: string): Promise<ProviderMetadata> {
  const url = discoveryUrl(issuer);
  const doc = await fetchDocument(services, url, 'the discovery document');
  if (doc.issuer !== issuer) {
    throw new DiscoveryError(`the discovery document at ${url} names the issuer ${JSON.stringify(doc.issuer)}, not ${JSON.stringify(issuer)}; use exactly the issuer it names`);
  }
  const endpoint = (name: string, required: boolean): string | null => {
    const value = doc[name];
    if (value === undefined && !required) return null;
    if (!isHttpUrl(value)) throw new DiscoveryError(`the discovery document at ${url} has no valid ${name}`);
    return value;
  };
  const metadata: ProviderMetadata = {
    issuer,
    authorization_endpoint: endpoint('authorization_endpoint', true)!,
    token_endpoint: endpoint('token_endpoint', true)!,
    jwks_uri: endpoint('jwks_uri', true)!,
    userinfo_endpoint: endpoint('userinfo_endpoint', false),
    token_endpoint_auth_method: clientAuthMethod(doc, issuer),
    id_token_signing_algs: signingAlgs(doc, issuer),
  };
  if (Array.isArray(doc.response_types_supported) && !doc.response_types_supported.includes('code')) {
    throw new DiscoveryError(`the provider at ${issuer} does not offer the authorization code flow (response_types_supported lacks "code")`);
  }
  if (Array.isArray(doc.code_challenge_methods_supported) && !doc.code_challenge_methods_supported.includes('S256')) {
    throw new DiscoveryError(`the provider at ${issuer} does not support PKCE with S256 (code_challenge_methods_supported)`);
  }
  return metadata;
}

/** The key set at `jwksUri`, reduced to the public signing keys we can use (at least one). */
export async function fetchJwks(services: Services, jwksUri: string): Promise<JsonWebKeySet> {
  const doc = await fetchDocument(services, jwksUri, 'the key set (jwks_uri)');
  if (!Array.isArray(doc.keys)) throw new DiscoveryError(`the key set at ${jwksUri} has no "keys" array`);
  const keys = (doc.keys as unknown[]).filter(isSigningKey).map(publicPart);
  if (keys.length === 0) {
    throw new DiscoveryError(`the key set at ${jwksUri} has no signing key for ${ID_TOKEN_ALGORITHMS.join(', ')}`);
  }
  return { keys };
}

async function fetchDocument(services: Services, url: string, what: string): Promise<Record<string, unknown>> {
  let res;
  try {
    res = await idpRequest(services, url);
  } catch (err) {
    if (err instanceof IdpRequestError) throw new DiscoveryError(`${what} could not be fetched: ${err.message}`);
    throw err;
  }
  if (res.status !== 200) throw new DiscoveryError(`${what} could not be fetched: ${url} answered ${res.status}`);
  if (typeof res.body !== 'object' || res.body === null || Array.isArray(res.body)) throw new DiscoveryError(`${what} at ${url} is not a JSON object`);
  return res.body as Record<string, unknown>;
}

function clientAuthMethod(doc: Record<string, unknown>, issuer: string): ClientAuthMethod {
  // Absent, the default of OpenID Connect Discovery applies: client_secret_basic.
  const offered = Array.isArray(doc.token_endpoint_auth_methods_supported) ? doc.token_endpoint_auth_methods_supported : ['client_secret_basic'];
  if (offered.includes('client_secret_basic')) return 'client_secret_basic';
  if (offered.includes('client_secret_post')) return 'client_secret_post';
  throw new DiscoveryError(`the provider at ${issuer} accepts neither client_secret_basic nor client_secret_post at its token endpoint`);
}

function signingAlgs(doc: Record<string, unknown>, issuer: string): string[] {
  const offered = doc.id_token_signing_alg_values_supported;
  if (!Array.isArray(offered)) return [...ID_TOKEN_ALGORITHMS];
  const usable = offered.filter(isAcceptedAlgorithm) as string[];
  if (usable.length === 0) {
    throw new DiscoveryError(`the provider at ${issuer} signs ID tokens only with ${offered.map(String).join(', ')}; pp accepts ${ID_TOKEN_ALGORITHMS.join(', ')}`);
  }
  return usable;
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function isSigningKey(key: unknown): key is JWK {
  if (typeof key !== 'object' || key === null) return false;
  const k = key as Record<string, unknown>;
  if (typeof k.kty !== 'string' || !SIGNING_KEY_TYPES.has(k.kty)) return false;
  if (k.use !== undefined && k.use !== 'sig') return false;
  return k.alg === undefined || isAcceptedAlgorithm(k.alg);
}

/** Only the public members are kept, whatever else a provider publishes. */
function publicPart(key: JWK): JWK {
  const { kty, kid, alg, use, n, e, crv, x, y } = key;
  return Object.fromEntries(Object.entries({ kty, kid, alg, use, n, e, crv, x, y }).filter(([, v]) => v !== undefined)) as JWK;
}

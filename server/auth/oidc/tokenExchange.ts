// The back-channel half of the code flow: the authorization code and PKCE verifier go to the token
// endpoint with the client's credentials (HTTP Basic or form fields, whichever the provider offers),
// and, when the ID token leaves the email out, the userinfo endpoint supplies it.

import type { Services } from '../../http/services.js';
import { clientSecretOf, type OidcProvider } from './oidcProviders.js';
import { idpRequest, IdpRequestError, type IdpRequestInit, type IdpResponse } from './idpRequest.js';
import { OidcRefusal } from './oidcRefusal.js';

export interface TokenSet {
  idToken: string;
  accessToken?: string;
}

/** RFC 6749 §2.3.1: the client id and secret are form-encoded before they are joined for Basic. */
const formEncode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');

export async function exchangeCode(services: Services, provider: OidcProvider, code: string, verifier: string, redirectUri: string): Promise<TokenSet> {
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
  const headers: Record<string, string> = {};
  const secret = clientSecretOf(services, provider.org_id);
  if (provider.metadata.token_endpoint_auth_method === 'client_secret_basic') {
    headers.authorization = `Basic ${Buffer.from(`${formEncode(provider.client_id)}:${formEncode(secret)}`).toString('base64')}`;
  } else {
    form.set('client_id', provider.client_id);
    form.set('client_secret', secret);
  }
  const res = await askProvider(services, provider.metadata.token_endpoint, { method: 'POST', headers, form });
  const body = (typeof res.body === 'object' && res.body !== null ? res.body : {}) as Record<string, unknown>;
  if (res.status !== 200) {
    const why = [body.error, body.error_description].filter((v) => typeof v === 'string').join(': ');
    throw new OidcRefusal('token_exchange_failed', `the token endpoint answered ${res.status}${why ? ` (${why})` : ''}`);
  }
  if (typeof body.id_token !== 'string') throw new OidcRefusal('token_exchange_failed', 'the token endpoint answered without an id_token');
  return { idToken: body.id_token, accessToken: typeof body.access_token === 'string' ? body.access_token : undefined };
}

/** The userinfo claims of the token's subject; they must name the same subject as the ID token. */
export async function fetchUserInfo(services: Services, provider: OidcProvider, accessToken: string | undefined, subject: string): Promise<Record<string, unknown>> {
  const endpoint = provider.metadata.userinfo_endpoint;
  if (!endpoint || !accessToken) throw new OidcRefusal('email_missing', 'the ID token has no email claim and the provider offers no userinfo to ask');
  const res = await askProvider(services, endpoint, { headers: { authorization: `Bearer ${accessToken}` } });
  if (res.status !== 200 || typeof res.body !== 'object' || res.body === null) {
    throw new OidcRefusal('userinfo_invalid', `the userinfo endpoint answered ${res.status}`);
  }
  const claims = res.body as Record<string, unknown>;
  if (claims.sub !== subject) throw new OidcRefusal('userinfo_invalid', 'the userinfo answer names another subject than the ID token');
  return claims;
}

async function askProvider(services: Services, url: string, init: IdpRequestInit): Promise<IdpResponse> {
  try {
    return await idpRequest(services, url, init);
  } catch (err) {
    if (err instanceof IdpRequestError) throw new OidcRefusal('provider_unreachable', err.message);
    throw err;
  }
}

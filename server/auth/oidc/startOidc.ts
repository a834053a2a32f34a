// POST /auth/oidc/start: finds the one organization whose enabled provider signs in the email's exact
// domain (or the named organization), stores a fresh state, and builds the provider's authorization URL.
// Nothing in the answer is a credential: the URL only sends the browser to the provider.

import type { Services } from '../../http/services.js';
import { NotFoundError, ValidationError } from '../../ground/errors.js';
import { normalizeEmail } from '../../accounts/users.js';
import { enabledOrgForDomain, getOidcProvider, isProviderEnabled } from './oidcProviders.js';
import { createOidcState } from './oidcStates.js';

export const OIDC_SCOPE = 'openid email profile';

export interface StartInput {
  email?: string;
  org_id?: number;
}

/** The redirect URI to register at the provider. */
export function oidcRedirectUri(services: Services): string {
  return `${services.config.base_url}/api/v1/auth/oidc/callback`;
}

/** Everything after the last @, lower-cased: `a@b.example.com` is b.example.com, never example.com. */
export function emailDomain(email: string): string {
  const normalized = normalizeEmail(email);
  return normalized.slice(normalized.lastIndexOf('@') + 1);
}

export function startOidcSignIn(services: Services, input: StartInput): string {
  const orgId = resolveOrganization(services, input);
  const provider = getOidcProvider(services, orgId)!;
  const { state, nonce, codeChallenge } = createOidcState(services, orgId);
  const url = new URL(provider.metadata.authorization_endpoint);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: provider.client_id,
    redirect_uri: oidcRedirectUri(services),
    scope: OIDC_SCOPE,
    state,
    nonce,
    code_challenge: codeChallenge,
    code_challenge_method: 'S256',
  };
  if (input.email !== undefined) params.login_hint = normalizeEmail(input.email);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

function resolveOrganization(services: Services, input: StartInput): number {
  if (input.email === undefined && input.org_id === undefined) {
    throw new ValidationError('email or org_id is required to find the organization to sign in to', 'email');
  }
  const byEmail = input.email === undefined ? undefined : enabledOrgForDomain(services, emailDomain(input.email));
  const byId = input.org_id !== undefined && isProviderEnabled(services, input.org_id) ? input.org_id : undefined;
  if (input.email !== undefined && input.org_id !== undefined) {
    if (byEmail === undefined && byId === undefined) throw new NotFoundError('no organization with single sign-on enabled matches this email or org_id');
    if (byEmail !== byId) throw new ValidationError("org_id is not the organization that signs in this email's domain", 'org_id');
    return byId!;
  }
  const found = byEmail ?? byId;
  if (found === undefined) {
    throw new NotFoundError(input.email !== undefined ? "no organization signs in this email's domain with single sign-on" : 'single sign-on is not enabled for this organization');
  }
  return found;
}

// Saving and removing an organization's provider (owner only, checked by the route). Saving checks the
// issuer for real: its discovery document and key set are fetched and must describe a usable provider,
// else 422 with what is wrong. A domain signs in to one enabled organization only (409 otherwise).

import type { Services } from '../../http/services.js';
import { ConflictError, NotFoundError, ValidationError } from '../../ground/errors.js';
import { recordAudit } from '../../audit/recordAudit.js';
import { discoverProvider, DiscoveryError, fetchJwks } from './discovery.js';
import { deleteOidcProvider, domainsTakenElsewhere, getOidcProvider, hasOidcProvider, writeOidcProvider, type JitRole, type OidcProvider } from './oidcProviders.js';

/** The PUT body, as ajv has checked it. */
export interface OidcSettings {
  issuer: string;
  client_id: string;
  /** Absent keeps the stored secret (it is never shown, so a form cannot send it back). */
  client_secret?: string;
  domains: string[];
  enabled?: boolean;
  jit?: { enabled: boolean; default_role?: JitRole };
}

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export async function configureOidcProvider(services: Services, orgId: number, actorUserId: number, input: OidcSettings): Promise<OidcProvider> {
  checkIssuer(input.issuer);
  const domains = normalizeDomains(input.domains);
  const enabled = input.enabled ?? true;
  const existed = hasOidcProvider(services, orgId);
  if (input.client_secret === undefined && !existed) {
    throw new ValidationError('client_secret is required when the organization has no provider yet', 'client_secret');
  }
  if (enabled) assertDomainsFree(services, orgId, domains);
  const { metadata, jwks } = await checkProvider(services, input.issuer);
  const jit = { enabled: input.jit?.enabled ?? false, default_role: input.jit?.default_role ?? 'viewer' };
  const save = services.meta.transaction(() => {
    // Checked again: another organization may have claimed a domain while the issuer was being fetched.
    if (enabled) assertDomainsFree(services, orgId, domains);
    writeOidcProvider(services, { orgId, issuer: input.issuer, clientId: input.client_id, clientSecret: input.client_secret, enabled, domains, jit, metadata, jwks });
    recordAudit(services, {
      actor_user_id: actorUserId,
      org_id: orgId,
      action: existed ? 'org.oidc.update' : 'org.oidc.create',
      target: input.issuer,
      outcome: 'success',
      details: { client_id: input.client_id, domains, enabled, jit, client_secret_changed: input.client_secret !== undefined },
    });
  });
  save();
  return getOidcProvider(services, orgId)!;
}

export function removeOidcProvider(services: Services, orgId: number, actorUserId: number): void {
  const issuer = getOidcProvider(services, orgId)?.issuer;
  if (!deleteOidcProvider(services, orgId)) throw new NotFoundError('single sign-on is not configured for this organization');
  recordAudit(services, { actor_user_id: actorUserId, org_id: orgId, action: 'org.oidc.delete', target: issuer, outcome: 'success' });
}

async function checkProvider(services: Services, issuer: string) {
  try {
    const metadata = await discoverProvider(services, issuer);
    return { metadata, jwks: await fetchJwks(services, metadata.jwks_uri) };
  } catch (err) {
    if (err instanceof DiscoveryError) throw new ValidationError(`issuer could not be verified: ${err.message}`, 'issuer');
    throw err;
  }
}

function checkIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new ValidationError('issuer must be an absolute http(s) URL', 'issuer');
  }
  if (!['http:', 'https:'].includes(url.protocol)) throw new ValidationError('issuer must be an absolute http(s) URL', 'issuer');
  if (url.search || url.hash || url.username || url.password) {
    throw new ValidationError('issuer must not carry a query, fragment or credentials', 'issuer');
  }
}

/** Lower-cased, without a trailing dot, each once; anything but a plain domain name is refused. */
function normalizeDomains(domains: string[]): string[] {
  const out = new Set<string>();
  domains.forEach((raw, i) => {
    const domain = raw.trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN.test(domain)) {
      throw new ValidationError(`domains[${i}] must be a domain name such as example.com (no @, scheme or wildcard), got ${JSON.stringify(raw)}`, `domains[${i}]`);
    }
    out.add(domain);
  });
  return [...out].sort();
}

function assertDomainsFree(services: Services, orgId: number, domains: string[]): void {
  const taken = domainsTakenElsewhere(services, orgId, domains);
  if (taken.length > 0) {
    const subject = taken.length === 1 ? `the domain ${taken[0]} already belongs` : `the domains ${taken.join(', ')} already belong`;
    throw new ConflictError(`${subject} to another organization with single sign-on enabled`, 'conflict', { domains: taken });
  }
}

// Storage of each organization's OpenID provider: settings, email domains, the discovery result and
// the cached key set. The client secret is sealed with the server's OIDC key and opened only to talk
// to the token endpoint. The rules about who may change what live in configureOidc.ts.

import type { Services } from '../../http/services.js';
import type { Role } from '../../access/roles.js';
import { deriveKey } from '../../ground/secretKeys.js';
import { open, seal } from '../../ground/secretBox.js';
import type { JsonWebKeySet, ProviderMetadata } from './discovery.js';

export type JitRole = Exclude<Role, 'owner'>;

export interface OidcProvider {
  org_id: number;
  issuer: string;
  client_id: string;
  enabled: boolean;
  domains: string[];
  jit: { enabled: boolean; default_role: JitRole };
  metadata: ProviderMetadata;
  jwks: JsonWebKeySet;
  jwks_fetched_at: string;
  created_at: string;
  updated_at: string;
}

export interface ProviderRecord {
  orgId: number;
  issuer: string;
  clientId: string;
  /** Undefined keeps the stored secret. */
  clientSecret?: string;
  enabled: boolean;
  domains: string[];
  jit: { enabled: boolean; default_role: JitRole };
  metadata: ProviderMetadata;
  jwks: JsonWebKeySet;
}

interface ProviderRow {
  org_id: number;
  issuer: string;
  client_id: string;
  enabled: number;
  jit_enabled: number;
  jit_default_role: JitRole;
  discovery_json: string;
  jwks_json: string;
  jwks_fetched_at: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'org_id, issuer, client_id, enabled, jit_enabled, jit_default_role, discovery_json, jwks_json, jwks_fetched_at, created_at, updated_at';

const oidcKey = (services: Services) => deriveKey(services.secret, 'oidc-encryption');

export function getOidcProvider(services: Services, orgId: number): OidcProvider | undefined {
  const row = services.meta.prepare(`SELECT ${COLUMNS} FROM oidc_providers WHERE org_id = ?`).get(orgId) as ProviderRow | undefined;
  if (!row) return undefined;
  const domains = services.meta.prepare('SELECT domain FROM oidc_domains WHERE org_id = ? ORDER BY domain').pluck().all(orgId) as string[];
  return {
    org_id: row.org_id,
    issuer: row.issuer,
    client_id: row.client_id,
    enabled: row.enabled === 1,
    domains,
    jit: { enabled: row.jit_enabled === 1, default_role: row.jit_default_role },
    metadata: JSON.parse(row.discovery_json) as ProviderMetadata,
    jwks: JSON.parse(row.jwks_json) as JsonWebKeySet,
    jwks_fetched_at: row.jwks_fetched_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function hasOidcProvider(services: Services, orgId: number): boolean {
  return services.meta.prepare('SELECT 1 FROM oidc_providers WHERE org_id = ?').get(orgId) !== undefined;
}

export function clientSecretOf(services: Services, orgId: number): string {
  const sealed = services.meta.prepare('SELECT client_secret_sealed FROM oidc_providers WHERE org_id = ?').pluck().get(orgId) as string;
  return open(oidcKey(services), sealed);
}

/** The organization whose enabled provider signs in this exact domain, if any. */
export function enabledOrgForDomain(services: Services, domain: string): number | undefined {
  return services.meta.prepare('SELECT d.org_id FROM oidc_domains d JOIN oidc_providers p ON p.org_id = d.org_id WHERE d.domain = ? AND p.enabled = 1 ORDER BY d.org_id').pluck().get(domain) as
    | number
    | undefined;
}

export function isProviderEnabled(services: Services, orgId: number): boolean {
  return services.meta.prepare('SELECT 1 FROM oidc_providers WHERE org_id = ? AND enabled = 1').get(orgId) !== undefined;
}

/** Those of `domains` that another organization's enabled provider already signs in. */
export function domainsTakenElsewhere(services: Services, orgId: number, domains: string[]): string[] {
  const taken = services.meta.prepare('SELECT 1 FROM oidc_domains d JOIN oidc_providers p ON p.org_id = d.org_id WHERE d.domain = ? AND p.enabled = 1 AND d.org_id <> ?');
  return domains.filter((d) => taken.get(d, orgId) !== undefined);
}

/** Inserts or replaces the organization's provider and its domains (call inside a transaction). */
export function writeOidcProvider(services: Services, record: ProviderRecord): void {
  const db = services.meta;
  const values = {
    org_id: record.orgId,
    issuer: record.issuer,
    client_id: record.clientId,
    sealed: record.clientSecret === undefined ? null : seal(oidcKey(services), record.clientSecret),
    enabled: record.enabled ? 1 : 0,
    jit_enabled: record.jit.enabled ? 1 : 0,
    jit_default_role: record.jit.default_role,
    discovery: JSON.stringify(record.metadata),
    jwks: JSON.stringify(record.jwks),
    now: services.clock.now().toISOString(),
  };
  const updated = db
    .prepare(
      `UPDATE oidc_providers SET issuer = @issuer, client_id = @client_id, client_secret_sealed = coalesce(@sealed, client_secret_sealed),
              enabled = @enabled, jit_enabled = @jit_enabled, jit_default_role = @jit_default_role,
              discovery_json = @discovery, jwks_json = @jwks, jwks_fetched_at = @now, updated_at = @now
        WHERE org_id = @org_id`,
    )
    .run(values);
  if (updated.changes === 0) {
    db.prepare(
      `INSERT INTO oidc_providers (org_id, issuer, client_id, client_secret_sealed, enabled, jit_enabled, jit_default_role,
                                   discovery_json, jwks_json, jwks_fetched_at, created_at, updated_at)
       VALUES (@org_id, @issuer, @client_id, @sealed, @enabled, @jit_enabled, @jit_default_role, @discovery, @jwks, @now, @now, @now)`,
    ).run(values);
  }
  db.prepare('DELETE FROM oidc_domains WHERE org_id = ?').run(record.orgId);
  const insert = db.prepare('INSERT INTO oidc_domains (org_id, domain) VALUES (?, ?)');
  for (const domain of record.domains) insert.run(record.orgId, domain);
}

/** Replaces the cached key set after a fetch. */
export function storeJwks(services: Services, orgId: number, jwks: JsonWebKeySet, fetchedAt: Date): void {
  services.meta.prepare('UPDATE oidc_providers SET jwks_json = ?, jwks_fetched_at = ? WHERE org_id = ?').run(JSON.stringify(jwks), fetchedAt.toISOString(), orgId);
}

/** Removes the provider, its domains and the sign-ins in flight for it; false when there was none. */
export function deleteOidcProvider(services: Services, orgId: number): boolean {
  const remove = services.meta.transaction(() => {
    services.meta.prepare('DELETE FROM oidc_states WHERE org_id = ?').run(orgId);
    return services.meta.prepare('DELETE FROM oidc_providers WHERE org_id = ?').run(orgId).changes === 1;
  });
  return remove();
}

-- Single sign-on: one OpenID provider per organization, the email domains it signs in, and the
-- one-time states of sign-ins in flight. The client secret and the PKCE verifiers are sealed with a
-- server key; states and nonces are kept only as keyed hashes.
CREATE TABLE oidc_providers (
  org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  issuer TEXT NOT NULL,
  client_id TEXT NOT NULL,
  client_secret_sealed TEXT NOT NULL,
  enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  jit_enabled INTEGER NOT NULL CHECK (jit_enabled IN (0, 1)),
  jit_default_role TEXT NOT NULL CHECK (jit_default_role IN ('viewer', 'analyst', 'admin')),
  -- The discovery document and key set as last fetched from the issuer.
  discovery_json TEXT NOT NULL,
  jwks_json TEXT NOT NULL,
  jwks_fetched_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE oidc_domains (
  org_id INTEGER NOT NULL REFERENCES oidc_providers(org_id) ON DELETE CASCADE,
  domain TEXT NOT NULL,
  PRIMARY KEY (org_id, domain)
);
CREATE INDEX oidc_domains_domain ON oidc_domains(domain);

CREATE TABLE oidc_states (
  state_hash TEXT PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  nonce_hash TEXT NOT NULL,
  verifier_sealed TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX oidc_states_expiry ON oidc_states(expires_at);

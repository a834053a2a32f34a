-- Personal API keys (pp_pk_…): a member's own credential for scripts and BI tools on /api/v1.
-- Scopes are a space-separated subset of `read write admin`; a key acts with its member's role as
-- read on each request, never above it. Only the hash of the secret is kept. A key dies with its
-- membership: removing the member (or the organization) revokes every key they held there, so a
-- member invited back does not find old keys alive.
CREATE TABLE personal_api_keys (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  public_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  scopes TEXT NOT NULL,
  expires_at TEXT,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX personal_api_keys_owner ON personal_api_keys(user_id, org_id);

CREATE TRIGGER personal_api_keys_leave_with_member AFTER DELETE ON memberships
BEGIN
  UPDATE personal_api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
   WHERE user_id = OLD.user_id AND org_id = OLD.org_id AND revoked_at IS NULL;
END;

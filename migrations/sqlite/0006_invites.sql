-- Invitations to an organization: the emailed token is kept only as a keyed hash; seven days, single use.
CREATE TABLE invites (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL COLLATE NOCASE,
  role TEXT NOT NULL CHECK (role IN ('viewer', 'analyst', 'admin', 'owner')),
  token_hash TEXT NOT NULL UNIQUE,
  invited_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  accepted_at TEXT,
  accepted_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  revoked_at TEXT
);
CREATE INDEX invites_org ON invites(org_id);

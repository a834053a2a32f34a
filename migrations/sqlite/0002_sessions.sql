-- A session is one sign-in on one device: access tokens name it, refresh tokens rotate within it,
-- and revoking it ends both.
CREATE TABLE sessions (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  user_agent TEXT,
  ip TEXT,
  revoked_at TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Release tokens (pp_rel_…, one scope: release_markers:write) and the deploy markers they record.
-- A marker's idempotency key is unique per project; body_hash is the SHA-256 of the canonical
-- request body, compared when the same key comes again.
CREATE TABLE release_tokens (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  public_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  expires_at TEXT,
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX release_tokens_project ON release_tokens(project_id);

CREATE TABLE deploy_markers (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  token_id INTEGER REFERENCES release_tokens(id) ON DELETE SET NULL,
  idempotency_key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  release TEXT NOT NULL,
  environment TEXT,
  commit_sha TEXT,
  deployed_at TEXT NOT NULL,
  url TEXT,
  description TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (project_id, idempotency_key)
);
CREATE INDEX deploy_markers_project_time ON deploy_markers(project_id, deployed_at);

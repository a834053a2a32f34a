-- Ingestion keys. The value (type prefix + public id + secret) is shown once at issue; only the
-- public id and an HMAC of the secret are kept. Legacy keys (type 'legacy', value prefix pp_wk_)
-- come only from `ppctl keys import-legacy` and predate the separate identity-linking right
-- (linking_split = 0).
CREATE TABLE ingest_keys (
  id INTEGER PRIMARY KEY,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('browser', 'server', 'legacy')),
  name TEXT NOT NULL,
  public_id TEXT NOT NULL UNIQUE,
  secret_hash TEXT NOT NULL,
  -- JSON arrays of strings
  scopes TEXT NOT NULL,
  domains TEXT NOT NULL DEFAULT '[]',
  expires_at TEXT,
  linking_split INTEGER NOT NULL DEFAULT 1 CHECK (linking_split IN (0, 1)),
  rotated_from INTEGER REFERENCES ingest_keys(id) ON DELETE SET NULL,
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX ingest_keys_project ON ingest_keys(project_id);

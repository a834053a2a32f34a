-- The applied license (at most one current row) and installation facts the license check needs:
-- the installation id and the high-water mark of trusted time.
CREATE TABLE licenses (
  id INTEGER PRIMARY KEY,
  token TEXT NOT NULL,
  license_id TEXT NOT NULL,
  applied_at TEXT NOT NULL,
  removed_at TEXT
);

CREATE TABLE installation (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

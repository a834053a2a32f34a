-- Saved insights, dashboards and public share links (server/dashboards, docs/dashboards.md).
-- An insight is one analytical query saved with its body as the query route takes it; `kind` is
-- that route's path below /queries/.
CREATE TABLE insights (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  kind TEXT NOT NULL,
  query TEXT NOT NULL CHECK (json_valid(query)),
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX insights_project ON insights(project_id, updated_at);

-- A dashboard's date range (both or neither) and filters apply to every insight tile on it.
CREATE TABLE dashboards (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  date_from TEXT,
  date_to TEXT,
  filters TEXT CHECK (filters IS NULL OR json_valid(filters)),
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((date_from IS NULL) = (date_to IS NULL))
);
CREATE INDEX dashboards_project ON dashboards(project_id, name);

-- A tile shows one insight or a text; deleting the insight deletes its tiles.
CREATE TABLE dashboard_tiles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  dashboard_id INTEGER NOT NULL REFERENCES dashboards(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  insight_id INTEGER REFERENCES insights(id) ON DELETE CASCADE,
  text TEXT,
  CHECK ((insight_id IS NULL) <> (text IS NULL))
);
CREATE INDEX dashboard_tiles_dashboard ON dashboard_tiles(dashboard_id, position);
CREATE INDEX dashboard_tiles_insight ON dashboard_tiles(insight_id);

-- A public link to one dashboard or insight. Only the token's keyed hash is kept; revoking a link,
-- or deleting what it shows, deletes the row.
CREATE TABLE share_links (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  dashboard_id INTEGER REFERENCES dashboards(id) ON DELETE CASCADE,
  insight_id INTEGER REFERENCES insights(id) ON DELETE CASCADE,
  expires_at TEXT,
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  last_used_at TEXT,
  CHECK ((dashboard_id IS NULL) <> (insight_id IS NULL))
);
CREATE INDEX share_links_project ON share_links(project_id, created_at);
CREATE INDEX share_links_dashboard ON share_links(dashboard_id);
CREATE INDEX share_links_insight ON share_links(insight_id);

-- How long a project keeps its session recordings. A project without a row keeps them 30 days
-- (see server/replay/replaySettings.ts); the sweep job deletes what is older.
CREATE TABLE replay_settings (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  retention_days INTEGER NOT NULL CHECK (retention_days BETWEEN 1 AND 3650),
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_at TEXT NOT NULL
);

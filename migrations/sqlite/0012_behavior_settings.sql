-- Per-project collection settings. A project without a row resolves to strict privacy with every
-- collection kind disabled (see server/behavior/behaviorSettings.ts).
CREATE TABLE behavior_settings (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  autocapture_clicks INTEGER NOT NULL CHECK (autocapture_clicks IN (0, 1)),
  autocapture_hover_intent INTEGER NOT NULL CHECK (autocapture_hover_intent IN (0, 1)),
  autocapture_sections INTEGER NOT NULL CHECK (autocapture_sections IN (0, 1)),
  autocapture_scroll INTEGER NOT NULL CHECK (autocapture_scroll IN (0, 1)),
  autocapture_forms INTEGER NOT NULL CHECK (autocapture_forms IN (0, 1)),
  privacy_mode TEXT NOT NULL CHECK (privacy_mode IN ('standard', 'strict')),
  replay_enabled INTEGER NOT NULL CHECK (replay_enabled IN (0, 1)),
  replay_sample_rate REAL NOT NULL CHECK (replay_sample_rate BETWEEN 0 AND 1),
  diagnostics_enabled INTEGER NOT NULL CHECK (diagnostics_enabled IN (0, 1)),
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_at TEXT NOT NULL
);

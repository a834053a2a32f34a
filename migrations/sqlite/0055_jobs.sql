-- Background jobs: work that must survive a restart, run one at a time by server/store/jobs.ts. A
-- job's kind names the handler that does it; what a kind needs besides goes to a table of its own
-- (form_purge_jobs). `attempts` counts starts, a restart after a stop included; `result` is the
-- handler's JSON answer once it succeeded, `error` its message once it failed.
CREATE TABLE jobs (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('queued', 'running', 'succeeded', 'failed')),
  created_at TEXT NOT NULL,
  started_at TEXT,
  finished_at TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  result TEXT CHECK (result IS NULL OR json_valid(result))
);
CREATE INDEX jobs_state ON jobs(state, id);

-- A purge of a project's form-interaction events (server/behavior/formPurge.ts): who asked, and how
-- many events it deleted. At most one purge per project is queued or running.
CREATE TABLE form_purge_jobs (
  job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  requested_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  deleted_events INTEGER
);
CREATE INDEX form_purge_jobs_project ON form_purge_jobs(project_id, job_id);
CREATE UNIQUE INDEX jobs_one_active_form_purge ON jobs(project_id) WHERE kind = 'form_purge' AND state IN ('queued', 'running');

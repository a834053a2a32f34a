-- Imports and exports of a project's events (server/transfer/): the job's options, its progress,
-- and for an import the checkpoint it resumes from after a stop (file, part of a zip, byte offset
-- and line number of the next record) and the lines it refused. `cancel_requested` is read by the
-- running job between batches.
CREATE TABLE transfer_jobs (
  job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  direction TEXT NOT NULL CHECK (direction IN ('import', 'export')),
  requested_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  options TEXT NOT NULL CHECK (json_valid(options)),
  total_bytes INTEGER NOT NULL DEFAULT 0,
  done_bytes INTEGER NOT NULL DEFAULT 0,
  lines INTEGER NOT NULL DEFAULT 0,
  stored INTEGER NOT NULL DEFAULT 0,
  duplicates INTEGER NOT NULL DEFAULT 0,
  rejected INTEGER NOT NULL DEFAULT 0,
  checkpoint TEXT CHECK (checkpoint IS NULL OR json_valid(checkpoint)),
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  updated_at TEXT NOT NULL
);
CREATE INDEX transfer_jobs_project ON transfer_jobs(project_id, direction, job_id);

-- The first lines an import refused, with where and why.
CREATE TABLE transfer_rejections (
  job_id INTEGER NOT NULL REFERENCES transfer_jobs(job_id) ON DELETE CASCADE,
  file TEXT NOT NULL,
  line INTEGER NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX transfer_rejections_job ON transfer_rejections(job_id, line);

-- Deleting a person's data on request (server/persons/personDeletion.ts). A deletion is a job; its
-- row holds who asked and, until the job succeeded, the ids it deletes (then NULL: nothing of the
-- person stays here but counts).
CREATE TABLE person_deletions (
  job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  requested_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  ids TEXT CHECK (ids IS NULL OR json_valid(ids)),
  id_count INTEGER NOT NULL,
  deleted_events INTEGER,
  deleted_recordings INTEGER
);
CREATE INDEX person_deletions_project ON person_deletions(project_id, job_id);

-- The ids of deleted persons, refused at ingest until `refused_until` unless a server key re-sends
-- them with consent. Only a keyed hash of each id is kept (server/persons/erasedIds.ts).
CREATE TABLE erased_ids (
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  id_hash TEXT NOT NULL,
  refused_until TEXT NOT NULL,
  PRIMARY KEY (project_id, id_hash)
);

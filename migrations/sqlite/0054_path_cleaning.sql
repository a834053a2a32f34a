-- Path-cleaning rules of a project: an ordered JSON list of {pattern, alias} that turn page paths
-- into the items of the paths query (`/users/\d+` → `/users/:id`). `revision` grows with every
-- change and is part of the paths query's cache key. A project without a row has no rules, revision 0.
CREATE TABLE path_cleaning (
  project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  rules TEXT NOT NULL,
  revision INTEGER NOT NULL,
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_at TEXT NOT NULL
);

-- Labeled-event rules (server/labeled, docs/labeled-events.md): conditions on an autocapture
-- event that derive a named event. `state`: active, disabled, or deleting until its teardown job
-- removes the row. The event name stays taken while the rule is deleting.
CREATE TABLE labeled_event_rules (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  base_event TEXT NOT NULL CHECK (base_event IN ('pp.click', 'pp.form_submit', 'pp.page_view')),
  selector TEXT,
  url_pattern TEXT,
  match_text TEXT,
  attributes TEXT NOT NULL CHECK (json_valid(attributes)),
  event_name TEXT NOT NULL,
  display_name TEXT,
  description TEXT,
  state TEXT NOT NULL CHECK (state IN ('active', 'disabled', 'deleting')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  updated_by INTEGER REFERENCES users(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX labeled_event_rules_name ON labeled_event_rules(project_id, event_name);

-- A job bringing a rule's derived events in line with the rule (derive them again, or tear them
-- down); `derived_events` is how many the rule labels once it succeeded. The rule id is kept after
-- the rule is gone.
CREATE TABLE labeled_event_jobs (
  job_id INTEGER PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  rule_id INTEGER NOT NULL,
  derived_events INTEGER
);
CREATE INDEX labeled_event_jobs_rule ON labeled_event_jobs(rule_id, job_id);

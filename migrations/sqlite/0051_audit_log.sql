-- The audit log: who did what to which organization, and whether it worked. Rows are only ever
-- added; the triggers refuse changes and deletions so the record cannot be edited in place. No
-- foreign keys, so an entry outlives the user or organization it names.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  actor_user_id INTEGER,
  org_id INTEGER,
  action TEXT NOT NULL,
  target TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('success', 'failure')),
  details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_org ON audit_log(org_id, id);
CREATE INDEX audit_log_actor ON audit_log(actor_user_id, id);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;

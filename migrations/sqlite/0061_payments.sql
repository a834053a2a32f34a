-- Cloud edition: every payment-provider callback received (its id makes redelivery harmless, its time
-- orders an organization's events), the marketing-email opt-out of each user, and the trial
-- reminders already sent (per trial end, so a trial that starts again is reminded again).
CREATE TABLE payment_events (
  id TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  org_id INTEGER,
  created_at_provider TEXT NOT NULL,
  received_at TEXT NOT NULL,
  outcome TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX payment_events_org ON payment_events(org_id, outcome, created_at_provider);

ALTER TABLE users ADD COLUMN marketing_opt_out_at TEXT;

CREATE TABLE trial_reminders (
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('3d', '1d')),
  trial_ends_at TEXT NOT NULL,
  sent_at TEXT NOT NULL,
  PRIMARY KEY (org_id, kind, trial_ends_at)
) WITHOUT ROWID;

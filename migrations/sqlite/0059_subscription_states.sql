-- Cloud subscriptions beyond the trial: the plan, the paid states a payment provider moves them
-- through, the end of the trial, activation of a held trial, and the events counted against quotas.
CREATE TABLE subscriptions_next (
  org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('trialing', 'pending_review', 'active', 'past_due', 'cancelled')),
  trial_state TEXT NOT NULL CHECK (trial_state IN ('trialing', 'sms_required', 'pending_review', 'rejected', 'converted')),
  plan TEXT CHECK (plan IS NULL OR plan IN ('free', 'growth', 'scale')),
  trial_started_at TEXT NOT NULL,
  trial_ends_at TEXT,
  trial_events INTEGER NOT NULL DEFAULT 0,
  activated_via TEXT CHECK (activated_via IS NULL OR activated_via IN ('sms', 'review')),
  review_note TEXT,
  past_due_since TEXT,
  current_period_end TEXT,
  provider_customer TEXT,
  provider_subscription TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT
);
INSERT INTO subscriptions_next (org_id, status, trial_state, trial_started_at, created_at)
  SELECT org_id, status, trial_state, trial_started_at, created_at FROM subscriptions;
UPDATE subscriptions_next SET trial_ends_at = strftime('%Y-%m-%dT%H:%M:%fZ', trial_started_at, '+14 days') WHERE status = 'trialing';
DROP TABLE subscriptions;
ALTER TABLE subscriptions_next RENAME TO subscriptions;

CREATE TABLE org_usage (
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  month TEXT NOT NULL,
  events INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, month)
) WITHOUT ROWID;

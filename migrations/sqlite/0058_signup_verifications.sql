-- Trial-first signup (cloud edition): pending verifications, the emails they sent (for the per-address
-- cap), the subscription of each organization created by a signup and the signals it came with.
CREATE TABLE signup_verifications (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL COLLATE NOCASE,
  password_hash TEXT NOT NULL,
  name TEXT,
  org_name TEXT,
  timezone TEXT,
  device_fp TEXT,
  utm TEXT,
  ip TEXT,
  code_hash TEXT NOT NULL,
  token_hash TEXT NOT NULL UNIQUE,
  wrong_attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  last_sent_at TEXT NOT NULL,
  consumed_at TEXT,
  retired_at TEXT
);
CREATE INDEX signup_verifications_email ON signup_verifications(email, id);
CREATE INDEX signup_verifications_ip ON signup_verifications(ip, created_at);

CREATE TABLE signup_emails (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL COLLATE NOCASE,
  sent_at TEXT NOT NULL
);
CREATE INDEX signup_emails_email ON signup_emails(email, sent_at);

CREATE TABLE subscriptions (
  org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('trialing', 'pending_review')),
  trial_state TEXT NOT NULL CHECK (trial_state IN ('trialing', 'sms_required', 'pending_review')),
  trial_started_at TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE org_signups (
  org_id INTEGER PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  email TEXT NOT NULL,
  ip TEXT,
  device_fp TEXT,
  utm TEXT,
  company_note TEXT,
  risk_rules TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX org_signups_ip ON org_signups(ip);
CREATE INDEX org_signups_device ON org_signups(device_fp);

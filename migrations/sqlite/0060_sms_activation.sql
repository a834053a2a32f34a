-- Activating a held trial by SMS (cloud edition): the outbox of text messages, the codes sent to each
-- organization, and the phone numbers that already activated one. Phone numbers are kept only as
-- keyed hashes, or sealed inside a queued message until it is delivered.
CREATE TABLE sms_outbox (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,
  to_masked TEXT NOT NULL,
  body_sealed TEXT,
  status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TEXT NOT NULL,
  last_error TEXT,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE INDEX sms_outbox_due ON sms_outbox(status, next_attempt_at);

CREATE TABLE sms_codes (
  id INTEGER PRIMARY KEY,
  org_id INTEGER NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  phone_hash TEXT NOT NULL,
  code_hash TEXT NOT NULL,
  wrong_attempts INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  retired_at TEXT,
  consumed_at TEXT
);
CREATE INDEX sms_codes_org ON sms_codes(org_id, created_at);

-- No foreign key: a number stays spent when its organization is deleted.
CREATE TABLE sms_used_phones (
  phone_hash TEXT PRIMARY KEY,
  org_id INTEGER NOT NULL,
  activated_at TEXT NOT NULL
) WITHOUT ROWID;

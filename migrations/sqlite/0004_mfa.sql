-- Second factor: a TOTP secret encrypted with a server key (pending until the first code confirms
-- it), the last time step a code was accepted in (so a code cannot be replayed), and one-time
-- recovery codes kept as keyed hashes.
CREATE TABLE mfa (
  user_id INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_sealed TEXT NOT NULL,
  enabled_at TEXT,
  last_step INTEGER,
  created_at TEXT NOT NULL
);

CREATE TABLE mfa_recovery_codes (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX mfa_recovery_codes_user ON mfa_recovery_codes(user_id);

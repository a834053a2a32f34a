-- Password reset links: one hour, single use; a newer request retires the older unused ones.
CREATE TABLE password_resets (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT,
  retired_at TEXT
);
CREATE INDEX password_resets_user ON password_resets(user_id);

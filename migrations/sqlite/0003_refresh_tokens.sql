-- Refresh tokens: opaque values kept only as keyed hashes. All tokens of one session form a family;
-- each rotation marks the presented token used and links the new one to it, so presenting a used
-- token again is recognisable as reuse.
CREATE TABLE refresh_tokens (
  id INTEGER PRIMARY KEY,
  token_hash TEXT NOT NULL UNIQUE,
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rotated_from INTEGER REFERENCES refresh_tokens(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);
CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);

-- Element captures from the picker, keyed by the HMAC of the picker token (the token itself is
-- never stored). A later capture under the same token replaces the earlier one.
CREATE TABLE element_captures (
  token_hash VARCHAR PRIMARY KEY,
  project_id INTEGER NOT NULL,
  key_id VARCHAR NOT NULL,
  nonce VARCHAR NOT NULL,
  url VARCHAR NOT NULL,
  selector VARCHAR NOT NULL,
  element JSON NOT NULL,
  chain JSON NOT NULL,
  received_at TIMESTAMPTZ NOT NULL
);

-- Element captures from the picker (as DuckDB's element_captures), keyed by the HMAC of the picker
-- token (the token itself is never stored). A later capture under the same token replaces the
-- earlier one: ReplacingMergeTree keeps, per token, the row of the largest `version` once parts
-- merge, and reads ask for FINAL. Every node holds all of them (few, small rows).
CREATE TABLE IF NOT EXISTS {{db}}.element_captures {{on_cluster}} (
  token_hash String,
  project_id UInt32,
  key_id String,
  nonce String,
  url String,
  selector String,
  element String,
  chain String,
  received_at DateTime('UTC'),
  received_us UInt32,
  version UInt64
) ENGINE = {{everywhere:element_captures:version}}
ORDER BY token_hash;

-- Session-recording chunks as the tracker sends them: a gzip-compressed JSON array of rrweb
-- events per (project, session, seq). A chunk sent twice is stored once.
CREATE TABLE replay_chunks (
  project_id INTEGER NOT NULL,
  session_id VARCHAR NOT NULL,
  seq BIGINT NOT NULL,
  anonymous_id VARCHAR NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  first_ts TIMESTAMPTZ,
  last_ts TIMESTAMPTZ,
  event_count INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL,
  key_id VARCHAR NOT NULL,
  sdk_name VARCHAR,
  sdk_version VARCHAR,
  data BLOB NOT NULL,
  PRIMARY KEY (project_id, session_id, seq)
);

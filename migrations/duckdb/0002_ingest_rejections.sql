-- Sanitized records of refused ingestion attempts for the Integration Doctor: an event refused
-- inside an accepted request, or a request refused by a key's policy (scope, origin, rotation).
-- Never property values, bodies or credentials: only the key's public id, the sdk, the event name
-- (truncated to 200 characters), a code and a fixed message.
CREATE TABLE ingest_rejections (
  project_id INTEGER NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  request_id VARCHAR NOT NULL,
  event_index INTEGER,
  operation VARCHAR NOT NULL,
  key_id VARCHAR NOT NULL,
  source VARCHAR NOT NULL,
  sdk_name VARCHAR,
  sdk_version VARCHAR,
  event VARCHAR,
  code VARCHAR NOT NULL,
  message VARCHAR NOT NULL
);

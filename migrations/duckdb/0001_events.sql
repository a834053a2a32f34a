-- Raw events, one row per accepted event. Actor identity is resolved at query time through
-- identity_links, so nothing here is rewritten when a user identifies.
CREATE TABLE events (
  project_id INTEGER NOT NULL,
  uuid UUID NOT NULL,
  ts TIMESTAMPTZ NOT NULL,
  received_at TIMESTAMPTZ NOT NULL,
  event VARCHAR NOT NULL,
  distinct_id VARCHAR NOT NULL,
  anonymous_id VARCHAR,
  user_id VARCHAR,
  session_id VARCHAR,
  source VARCHAR NOT NULL,
  sdk_name VARCHAR,
  sdk_version VARCHAR,
  key_id VARCHAR,
  release VARCHAR,
  url VARCHAR,
  path VARCHAR,
  referrer VARCHAR,
  props JSON,
  revenue DOUBLE,
  elements JSON,
  invalid BOOLEAN NOT NULL DEFAULT false,
  invalid_reasons VARCHAR[],
  rule_id BIGINT
);

CREATE TABLE identity_links (
  project_id INTEGER NOT NULL,
  distinct_id VARCHAR NOT NULL,
  actor_id VARCHAR NOT NULL,
  linked_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (project_id, distinct_id)
);

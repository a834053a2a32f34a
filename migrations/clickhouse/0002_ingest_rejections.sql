-- Sanitized records of refused ingestion attempts for the Integration Doctor (as DuckDB's
-- ingest_rejections). One row per attempt: a batch stored twice keeps one row per sorting key once
-- parts merge. On a cluster sharded by the request id, the same on every try.
CREATE TABLE IF NOT EXISTS {{db}}.{{local:ingest_rejections}} {{on_cluster}} (
  project_id UInt32,
  received_at DateTime('UTC'),
  received_us UInt32,
  request_id String,
  event_index Nullable(Int32),
  operation {{low_cardinality:String}},
  key_id {{low_cardinality:String}},
  source {{low_cardinality:String}},
  sdk_name Nullable(String),
  sdk_version Nullable(String),
  event Nullable(String),
  code {{low_cardinality:String}},
  message String
) ENGINE = {{sharded:ingest_rejections}}
PARTITION BY toYYYYMM(received_at)
ORDER BY (project_id, received_at, request_id, ifNull(event_index, -1), code);

{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.ingest_rejections {{on_cluster}} AS {{db}}.ingest_rejections_local ENGINE = Distributed({{cluster}}, {{db}}, ingest_rejections_local, cityHash64(request_id));

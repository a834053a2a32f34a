-- Events, one row per accepted event, with the stored fields of an export (server/engine/rows.ts).
-- pp's migration runner (server/engine/clickhouse/migrations.ts) fills in the {{…}} marks: the
-- database, ON CLUSTER, the table engine and, on a cluster, the local table's name.
--
-- Instants are a DateTime in UTC (whole seconds: zone functions, the partition and the order
-- work on it, on 18.16 as on newer servers) and the microseconds within that second in a column
-- of their own (*_us); 18.16 has no DateTime64. An event's exact instant is
-- toUInt64(ts) * 1000000 + ts_us.
--
-- Ordered as PostHog orders its events (project, day, event, actor hash, uuid), so a project's
-- days and events are read together; ReplacingMergeTree keeps one row per sorting key, and the key
-- ends with the uuid: a batch stored twice (loaded again after a crash or a timeout) keeps one row
-- per event once parts merge, and reads that must not wait for merges ask for FINAL.
-- On a cluster the rows are sharded by the actor's key (distinct_key, the low half of md5 of the
-- distinct id, already a hash), so every event of a distinct id is on one shard.
CREATE TABLE IF NOT EXISTS {{db}}.{{local:events}} {{on_cluster}} (
  project_id UInt32,
  uuid UUID,
  ts DateTime('UTC'),
  ts_us UInt32,
  received_at DateTime('UTC'),
  received_us UInt32,
  event {{low_cardinality:String}},
  distinct_id String,
  distinct_key UInt64,
  anonymous_id Nullable(String),
  user_id Nullable(String),
  session_id Nullable(String),
  source {{low_cardinality:String}},
  sdk_name Nullable(String),
  sdk_version Nullable(String),
  key_id {{low_cardinality:String}},
  release Nullable(String),
  url Nullable(String),
  path Nullable(String),
  referrer Nullable(String),
  props Nullable(String),
  revenue Nullable(Float64),
  elements Nullable(String),
  invalid UInt8,
  invalid_reasons Array(String),
  rule_id Nullable(UInt64),
  source_uuid Nullable(UUID),
  el_tags Array(Nullable(String)),
  el_ids Array(Nullable(String)),
  el_classes Array(Nullable(String)),
  el_nth Array(Nullable(Int32)),
  el_attrs Array(String),
  el_text Nullable(String)
) ENGINE = {{sharded:events}}
PARTITION BY toYYYYMM(ts)
ORDER BY (project_id, toDate(ts), event, distinct_key, uuid);

{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.events {{on_cluster}} AS {{db}}.events_local ENGINE = Distributed({{cluster}}, {{db}}, events_local, distinct_key);

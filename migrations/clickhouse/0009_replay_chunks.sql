-- Session-recording chunks (as DuckDB's replay_chunks): a gzip-compressed JSON array of rrweb events
-- per (project, session, seq), the bytes as they are in a String. Instants the tracker's events give
-- (first_us, last_us) are µs since the epoch in an Int64 (a recording's timestamps may fall outside
-- DateTime); the time of receipt is a DateTime in UTC and its µs, as events keep it.
--
-- A chunk sent twice is stored once: the writer leaves out a chunk already held, and a row that
-- slipped in twice anyway (a timed-out INSERT that landed after all) shares its sorting key with the
-- first; ReplacingMergeTree keeps the row of the largest `keep` (the earliest received, as DuckDB's
-- INSERT OR IGNORE keeps the first) once parts merge, and reads ask for FINAL.
-- One partition: the copies of a chunk merge whatever their times of receipt.
-- On a cluster the rows are sharded by session, so every chunk of a recording is on one shard (its
-- summary, its stream and FINAL read one shard's rows), with replicas like events (written without a
-- quorum: see server/engine/clickhouse/replayIngestSql.ts).
CREATE TABLE IF NOT EXISTS {{db}}.{{local:replay_chunks}} {{on_cluster}} (
  project_id UInt32,
  session_id String,
  seq Int64,
  anonymous_id String,
  received_at DateTime('UTC'),
  received_us UInt32,
  first_us Nullable(Int64),
  last_us Nullable(Int64),
  event_count UInt32,
  raw_bytes UInt32,
  key_id String,
  sdk_name Nullable(String),
  sdk_version Nullable(String),
  data String,
  keep UInt64
) ENGINE = {{sharded:replay_chunks:keep}}
ORDER BY (project_id, session_id, seq);

{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.replay_chunks {{on_cluster}} AS {{db}}.replay_chunks_local ENGINE = Distributed({{cluster}}, {{db}}, replay_chunks_local, cityHash64(session_id));

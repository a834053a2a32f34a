-- Events' top-level properties as columns the appender fills from `props` (see
-- server/engine/clickhouse/properties.ts): ClickHouse 18.16 has no JSONExtract, and its visitParam*
-- functions match a key at any depth. prop_keys are the keys; prop_values each key's text as
-- DuckDB's json_extract_string gives it (NULL for JSON null); prop_numbers, for a JSON number, its
-- double as an Int64 of the same order (NULL otherwise), which numeric filters compare exactly.
-- Events stored before this migration have none (empty arrays): their properties match no filter.
--
-- 18.16 has no ADD COLUMN IF NOT EXISTS: {{unless_column:local:T:C}} runs a statement only where the
-- table holding this node's rows of T has no column C yet.
{{unless_column:local:events:prop_keys}} ALTER TABLE {{db}}.{{local:events}} {{on_cluster}} ADD COLUMN prop_keys Array(String);
{{unless_column:local:events:prop_values}} ALTER TABLE {{db}}.{{local:events}} {{on_cluster}} ADD COLUMN prop_values Array(Nullable(String));
{{unless_column:local:events:prop_numbers}} ALTER TABLE {{db}}.{{local:events}} {{on_cluster}} ADD COLUMN prop_numbers Array(Nullable(Int64));
-- On a cluster the Distributed table over them is made again with them (18.16 refuses an ALTER ON
-- CLUSTER of a table that is not replicated where the shards have replicas); it holds no rows, as
-- pp inserts synchronously.
{{cluster_only}} DROP TABLE IF EXISTS {{db}}.events {{on_cluster}};
{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.events {{on_cluster}} AS {{db}}.events_local ENGINE = Distributed({{cluster}}, {{db}}, events_local, distinct_key);

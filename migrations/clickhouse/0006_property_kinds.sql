-- The JSON kind of each top-level property value, beside prop_keys (see
-- server/engine/clickhouse/properties.ts, PROPERTY_KINDS): 0 null, 1 string, 2 number, 3 boolean,
-- 4 object, 5 array. prop_values holds a string's text as it is and another value's JSON text, so a
-- string "true" and the boolean true read alike there; the property catalog tells them apart by this.
-- Events stored before this migration have none (an empty array): the catalog counts their keys
-- without a kind, as it counts a JSON null.
{{unless_column:local:events:prop_kinds}} ALTER TABLE {{db}}.{{local:events}} {{on_cluster}} ADD COLUMN prop_kinds Array(UInt8);
-- On a cluster the Distributed table over them is made again with it (as in 0005).
{{cluster_only}} DROP TABLE IF EXISTS {{db}}.events {{on_cluster}};
{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.events {{on_cluster}} AS {{db}}.events_local ENGINE = Distributed({{cluster}}, {{db}}, events_local, distinct_key);

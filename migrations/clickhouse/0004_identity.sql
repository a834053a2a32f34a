-- Identity links and traits (as DuckDB's identity_links and actor_traits): every node holds all of
-- them, so a shard joins its events to their actors locally, whatever shard an actor's other ids
-- are on. ReplacingMergeTree keeps, per key, the row of the largest `version` once parts merge;
-- reads that must not wait for merges ask for FINAL. A link changed (an alias, a merge) is a new
-- row of a larger version, never an update.
--
-- identity_links: the distinct id `distinct_id` (its key `distinct_key`, the low half of its md5, as
-- events hold it) belongs to the actor `actor_id` (key `actor_key`). Links are kept transitively
-- resolved by ingestion: an id never points at an id that itself points elsewhere.
CREATE TABLE IF NOT EXISTS {{db}}.identity_links {{on_cluster}} (
  project_id UInt32,
  distinct_key UInt64,
  distinct_id String,
  actor_key UInt64,
  actor_id String,
  linked_at DateTime('UTC'),
  linked_us UInt32,
  version UInt64
) ENGINE = {{everywhere:identity_links:version}}
ORDER BY (project_id, distinct_key);

-- actor_traits: the traits sent with identify, merged per user id (later keys win, a null value
-- removes a key), as JSON text.
CREATE TABLE IF NOT EXISTS {{db}}.actor_traits {{on_cluster}} (
  project_id UInt32,
  user_id String,
  traits String,
  updated_at DateTime('UTC'),
  updated_us UInt32,
  version UInt64
) ENGINE = {{everywhere:actor_traits:version}}
ORDER BY (project_id, user_id);

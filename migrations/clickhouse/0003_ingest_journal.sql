-- How far the ingest journal is loaded: a row per loaded batch, the position its records reached;
-- the loaded position is the largest. Written after the batch's rows, so a crash in between loads
-- the batch again (stored once, see 0001). On a cluster the same rows are on every node.
CREATE TABLE IF NOT EXISTS {{db}}.ingest_journal {{on_cluster}} (
  position UInt64,
  loaded_at DateTime('UTC')
) ENGINE = {{everywhere:ingest_journal}}
ORDER BY position;

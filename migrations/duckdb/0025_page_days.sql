-- Per-day figures of each page URL (as stored, not yet normalized): a rollup of `events` that the
-- page behavior reports read instead of every event's URL and props. It is folded together with
-- actor_days, in the same passes, up to the same actor_day_state.through_rowid and in each
-- project's zone from actor_day_zones; reports read it with the raw events past that point in one
-- statement. `clickers` holds the distinct keys of the ids that clicked that day on that URL,
-- `sessions` the keys (md5_number_lower) of the sessions that viewed it and `sessionless` the keys
-- of the ids that viewed it without a session.
CREATE TABLE page_days (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  url VARCHAR NOT NULL,
  events BIGINT NOT NULL,
  page_views BIGINT NOT NULL,
  clicks BIGINT NOT NULL,
  rage_clicks BIGINT NOT NULL,
  dead_clicks BIGINT NOT NULL,
  measured BIGINT NOT NULL,
  r25 BIGINT NOT NULL,
  r50 BIGINT NOT NULL,
  r75 BIGINT NOT NULL,
  r100 BIGINT NOT NULL,
  depth_sum DOUBLE,
  clickers UBIGINT[] NOT NULL,
  sessions UBIGINT[] NOT NULL,
  sessionless UBIGINT[] NOT NULL
);

-- The rollups are folded again from the start, so that page_days holds every stored event too.
DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

-- Per-day activity of each distinct id: a rollup of `events` that day-level queries (retention,
-- lifecycle, stickiness, activity, daily series) read instead of every raw event. It is folded from
-- events in storage order (rowid; events are append-only), so it always holds exactly the events up
-- to actor_day_state.through_rowid, for each project listed in actor_day_zones, in that zone.
-- Queries read it together with the raw events past that point in one statement. Rows with a NULL
-- event sum all of the day's events of the distinct id, for queries about any event.
CREATE TABLE actor_days (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  event VARCHAR,
  distinct_id VARCHAR NOT NULL,
  events BIGINT NOT NULL,
  revenue DOUBLE,
  revenue_events BIGINT NOT NULL,
  refunds DOUBLE,
  refund_events BIGINT NOT NULL
);

-- The zone each project's rows were folded in; a project whose zone changed is folded again.
CREATE TABLE actor_day_zones (
  project_id INTEGER PRIMARY KEY,
  timezone VARCHAR NOT NULL
);

-- One row: the last events rowid folded, and the row count of actor_days after the last compaction.
CREATE TABLE actor_day_state (
  through_rowid BIGINT NOT NULL,
  compacted_rows BIGINT NOT NULL
);
INSERT INTO actor_day_state VALUES (-1, 0);

-- Per-day event counts by the value of chosen property keys (the setting events.rollup_properties):
-- a rollup of `events` that breakdowns by such a key read instead of parsing every event's props.
-- It is folded together with actor_days, in the same passes and up to the same
-- actor_day_state.through_rowid, in each project's zone from actor_day_zones; queries read it with
-- the raw events past that point in one statement. `value` is json_extract_string of the key, NULL
-- where the event does not have it.
CREATE TABLE property_days (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  event VARCHAR NOT NULL,
  key VARCHAR NOT NULL,
  value VARCHAR,
  events BIGINT NOT NULL,
  revenue DOUBLE,
  revenue_events BIGINT NOT NULL
);

-- The keys property_days holds, each folded for every event up to the folded point. A key added
-- to the setting is folded from the start; a key removed from it is dropped.
CREATE TABLE property_day_keys (
  key VARCHAR NOT NULL
);

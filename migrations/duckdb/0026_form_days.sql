-- Per-day form interaction of each form, page URL (as stored) and visitor: a rollup of the
-- pp.form_* events that the forms report reads instead of every event's props. It is folded with
-- actor_days, in the same passes, up to the same actor_day_state.through_rowid and in each
-- project's zone from actor_day_zones. A row is one (day, URL, form, session, distinct id): the
-- session's key (md5_number_lower of session_id, NULL without a session), the counts of starts,
-- submits and abandons, and the `duration_ms` of each submit.
CREATE TABLE form_days (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  url VARCHAR NOT NULL,
  form VARCHAR NOT NULL,
  session_key UBIGINT,
  distinct_key UBIGINT NOT NULL,
  starts BIGINT NOT NULL,
  submits BIGINT NOT NULL,
  abandons BIGINT NOT NULL,
  durations DOUBLE[] NOT NULL
);

-- The rollups are folded again from the start, so that form_days holds every stored event too.
DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM page_days;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

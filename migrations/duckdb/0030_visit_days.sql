-- Per-day pieces of visits, for the Web page: a rollup of `events` folded with actor_days, in the
-- same passes, up to the same actor_day_state.through_rowid and in each project's zone. One row is a
-- run of one distinct id's events on one local day with no gap over 30 minutes (a visit cut at
-- local midnight, and cut again where events of the day were folded in different passes); the Web
-- statement joins the rows of an actor (identities resolved when read) back into visits by the same
-- 30-minute rule. `entry` is the first page view (ms, path, its derived properties joined by chr(1)
-- in the Web page's table order), `exit` the last one, `pages` the page views per path.
CREATE TABLE visit_days (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  distinct_key UBIGINT NOT NULL,
  first_ms BIGINT NOT NULL,
  last_ms BIGINT NOT NULL,
  events BIGINT NOT NULL,
  page_views BIGINT NOT NULL,
  entry STRUCT(ms BIGINT, path VARCHAR, dims VARCHAR),
  exit STRUCT(ms BIGINT, path VARCHAR),
  pages MAP(VARCHAR, UBIGINT)
);

-- The rollups are folded again from the start, so that visit_days holds every stored event too.
DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM page_days;
DELETE FROM form_days;
DELETE FROM click_cells;
DELETE FROM click_elements;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

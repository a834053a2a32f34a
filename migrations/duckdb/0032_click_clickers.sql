-- click_elements' `clickers`: the distinct keys (md5_number_lower of the id, as events.distinct_key)
-- of the ids whose clicks the row counts, as page_days' `clickers` holds them for a page. The page
-- behavior report counts an element's clickers from it (resolved through identity_links when read)
-- instead of reading every raw pp.click event of the page; compaction merges the lists of a key.
-- The table is made again with the column, and every rollup folded again from the start (they are
-- folded up to one point), so that it holds every stored event.
DROP TABLE click_elements;
CREATE TABLE click_elements (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  url VARCHAR NOT NULL,
  event VARCHAR NOT NULL,
  chain VARCHAR NOT NULL,
  ex DOUBLE,
  ey DOUBLE,
  clicks BIGINT NOT NULL,
  clickers UBIGINT[] NOT NULL
);

DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM page_days;
DELETE FROM form_days;
DELETE FROM click_cells;
DELETE FROM visit_days;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

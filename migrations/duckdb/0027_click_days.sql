-- Per-day clicks of each page URL (as stored), placed for the heatmap: click_cells counts pp.click
-- events per viewport-width band and cell (a 2 % column of the viewport width, a 25 px row of the
-- page; cx and cy NULL for clicks on fixed or sticky elements, band NULL for clicks without a
-- viewport width or position), and click_elements counts pp.click, pp.rage_click and
-- pp.dead_click events per element chain and 10 % cell inside the element (ex and ey NULL without
-- an offset). Folded with actor_days, in the same passes, up to the same
-- actor_day_state.through_rowid and in each project's zone from actor_day_zones.
CREATE TABLE click_cells (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  url VARCHAR NOT NULL,
  band VARCHAR,
  cx DOUBLE,
  cy DOUBLE,
  clicks BIGINT NOT NULL
);

CREATE TABLE click_elements (
  project_id INTEGER NOT NULL,
  day DATE NOT NULL,
  url VARCHAR NOT NULL,
  event VARCHAR NOT NULL,
  chain VARCHAR NOT NULL,
  ex DOUBLE,
  ey DOUBLE,
  clicks BIGINT NOT NULL
);

-- The rollups are folded again from the start, so that these hold every stored event too.
DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM page_days;
DELETE FROM form_days;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

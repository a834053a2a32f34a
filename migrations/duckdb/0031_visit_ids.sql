-- The visit of each visit_days run, for the Web page: `visit_ms` is the first instant of the
-- distinct id's visit the run belongs to (the id's runs joined across midnight and across fold
-- passes by the 30-minute rule) and `visit_runs` how many runs that visit has, both set when the
-- folder compacts the table; runs folded since, or refolded after a deletion, hold NULL until the
-- next compaction. The Web statement takes the visit
-- of an actor's runs from it when they all hold one and come from one id, and joins the others'
-- runs by the rule when read, as before (engine/rollups/visitDays.ts).
ALTER TABLE visit_days ADD COLUMN visit_ms BIGINT;
ALTER TABLE visit_days ADD COLUMN visit_runs INTEGER;

-- Folded again from the start, which compacts, so that every run holds its visit.
DELETE FROM actor_days;
DELETE FROM property_days;
DELETE FROM page_days;
DELETE FROM form_days;
DELETE FROM click_cells;
DELETE FROM click_elements;
DELETE FROM visit_days;
DELETE FROM actor_day_zones;
UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0;

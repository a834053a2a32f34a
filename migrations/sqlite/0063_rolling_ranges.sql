-- A saved insight or a dashboard may keep its dates as a rule (`last_30_days`, `this_quarter`,
-- `since_2026-03-01`) resolved in the project's time zone when answered, instead of two fixed dates.
-- A dashboard holds either the rule or the fixed pair, never both.
ALTER TABLE insights ADD COLUMN date_range TEXT;
ALTER TABLE dashboards ADD COLUMN date_range TEXT CHECK (date_range IS NULL OR date_from IS NULL);

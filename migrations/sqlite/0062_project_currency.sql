-- Each project names the ISO 4217 currency its revenue amounts are in; the console shows every money
-- figure in it. Projects that existed before get USD, the default of new projects.
ALTER TABLE projects ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';

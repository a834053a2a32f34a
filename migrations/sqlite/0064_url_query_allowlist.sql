-- Query strings of stored page and referrer URLs: stripped at ingest except campaign parameters and
-- the project's allow-list of parameter names (a JSON array of strings), unless the project keeps
-- whole query strings (url_query_strip = 0). Existing settings rows get the stripping default.
ALTER TABLE behavior_settings ADD COLUMN url_query_strip INTEGER NOT NULL DEFAULT 1 CHECK (url_query_strip IN (0, 1));
ALTER TABLE behavior_settings ADD COLUMN url_query_allowlist TEXT NOT NULL DEFAULT '[]';

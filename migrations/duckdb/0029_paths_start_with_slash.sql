-- A stored path always starts with '/': ingestion now gives a URL without such a path
-- (`mailto:…`, `app:home`) none, and this clears the few such paths stored before. Queries rely
-- on it: a cleaned path starts with '/' when every cleaning alias does, so a name that does not
-- cannot be a page view's item.
UPDATE events SET path = NULL WHERE path IS NOT NULL AND NOT starts_with(path, '/');

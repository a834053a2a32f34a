// A page's normalized URL in DuckDB SQL: the same rule as normalizePageUrl (behavior/pageUrl.ts),
// meant to run once per distinct URL, never per event, for the behavior reports and rule matching.

/**
 * `SELECT url, page` for the distinct URLs `urls` yields (a relation with a text column `url`): the
 * same rule as normalizePageUrl in SQL, meant to run once per distinct URL, never per event.
 */
export function pageUrlsSql(urls: string): string {
  const origin = `CASE WHEN s.o = '' THEN '' ELSE regexp_replace(regexp_replace(lower(s.o), '^(http://.*):80$', '\\1', 's'), '^(https://.*):443$', '\\1', 's') END`;
  const path = `regexp_replace(CASE WHEN s.o = '' THEN p.base WHEN s.rest = '' THEN '/' ELSE s.rest END, '(.)/+$', '\\1', 's')`;
  const fragment = `CASE WHEN regexp_matches(p.frag, '^#[/!]') THEN p.frag ELSE '' END`;
  return `SELECT url, nullif(${origin} || ${path} || ${fragment}, '') AS page FROM (
    SELECT url, p, regexp_extract(p.base, '^([A-Za-z][A-Za-z0-9+.-]*://[^/]*)(.*)$', ['o', 'rest'], 's') AS s FROM (
      SELECT url, regexp_extract(url, '^([^#?]*)(\\?[^#]*)?(#.*)?$', ['base', 'q', 'frag'], 's') AS p FROM (${urls})))`;
}

/** behavior/pageUrl.ts's `pagePath` in SQL, of a page expression. */
export const pagePathSql = (page: string): string => `regexp_replace(${page}, '^[A-Za-z][A-Za-z0-9+.-]*://[^/]*', '')`;

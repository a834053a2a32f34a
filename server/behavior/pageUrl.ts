// A page's normalized URL, as behavior reports group and match events (docs/behavior.md): no query,
// no fragment unless it is a hash route, origin lowercased without its default port, no trailing
// slash. The same rule twice: in TypeScript for request parameters, in SQL for stored events.

const PARTS = /^([^#?]*)(\?[^#]*)?(#.*)?$/s;
const ORIGIN = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*)(.*)$/s;

/** The normalized form of `url`, or null for an empty one. */
export function normalizePageUrl(url: string): string | null {
  const [, base = '', , fragment = ''] = PARTS.exec(url) ?? [];
  const split = ORIGIN.exec(base);
  let origin = '';
  let path = base;
  if (split) {
    origin = split[1]!.toLowerCase().replace(/^(http:\/\/.*):80$/s, '$1').replace(/^(https:\/\/.*):443$/s, '$1');
    path = split[2]! === '' ? '/' : split[2]!;
  }
  path = path.replace(/(.)\/+$/s, '$1');
  const page = origin + path + (/^#[/!]/.test(fragment) ? fragment : '');
  return page === '' ? null : page;
}

/**
 * `SELECT url, page` for the distinct URLs `urls` yields (a relation with a text column `url`): the
 * same rule in SQL, meant to run once per distinct URL, never per event.
 */
export function pageUrlsSql(urls: string): string {
  const origin = `CASE WHEN s.o = '' THEN '' ELSE regexp_replace(regexp_replace(lower(s.o), '^(http://.*):80$', '\\1', 's'), '^(https://.*):443$', '\\1', 's') END`;
  const path = `regexp_replace(CASE WHEN s.o = '' THEN p.base WHEN s.rest = '' THEN '/' ELSE s.rest END, '(.)/+$', '\\1', 's')`;
  const fragment = `CASE WHEN regexp_matches(p.frag, '^#[/!]') THEN p.frag ELSE '' END`;
  return `SELECT url, nullif(${origin} || ${path} || ${fragment}, '') AS page FROM (
    SELECT url, p, regexp_extract(p.base, '^([A-Za-z][A-Za-z0-9+.-]*://[^/]*)(.*)$', ['o', 'rest'], 's') AS s FROM (
      SELECT url, regexp_extract(url, '^([^#?]*)(\\?[^#]*)?(#.*)?$', ['base', 'q', 'frag'], 's') AS p FROM (${urls})))`;
}

/** A normalized page without its origin: its path, with its hash route if it has one. */
export function pagePath(page: string): string {
  const split = ORIGIN.exec(page);
  return split ? split[2]! : page;
}

/** `pagePath` in SQL, of a page expression. */
export const pagePathSql = (page: string): string => `regexp_replace(${page}, '^[A-Za-z][A-Za-z0-9+.-]*://[^/]*', '')`;

/** A part every raw URL of the page contains, for a cheap pre-filter before the exact match. */
export function pathPartOf(page: string): string {
  const rest = pagePath(page);
  const hash = rest.search(/#[/!]/);
  return hash >= 0 ? rest.slice(0, hash) : rest;
}

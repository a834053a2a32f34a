// A page's normalized URL, as behavior reports group and match events (docs/behavior.md): no query,
// no fragment unless it is a hash route, origin lowercased without its default port, no trailing
// slash. The same rule twice: in TypeScript for request parameters and rules matched at ingest, in
// SQL for stored events. Both read a URL once from left to right: the TypeScript by index, the SQL
// with RE2, whose time is linear in the URL.

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
/** `+`, `.` and `-`, besides letters and digits. */
const isSchemeChar = (c: number) => isLetter(c) || isDigit(c) || c === 43 || c === 46 || c === 45;

/** Where the origin `scheme://host[:port]` at the start of `url` ends (its first `/` after it, or its end); 0 without one. */
function originEnd(url: string): number {
  if (url.length === 0 || !isLetter(url.charCodeAt(0))) return 0;
  let i = 1;
  while (i < url.length && isSchemeChar(url.charCodeAt(i))) i += 1;
  if (!url.startsWith('://', i)) return 0;
  const slash = url.indexOf('/', i + 3);
  return slash < 0 ? url.length : slash;
}

/** The origin lowercased, without `:80` for http or `:443` for https. */
function normalOrigin(origin: string): string {
  const lower = origin.toLowerCase();
  if (lower.startsWith('http://') && lower.endsWith(':80') && lower.length >= 10) return lower.slice(0, -3);
  if (lower.startsWith('https://') && lower.endsWith(':443') && lower.length >= 12) return lower.slice(0, -4);
  return lower;
}

/** `path` without its trailing run of slashes, its first character kept (`/` stays `/`). */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end -= 1;
  return path.slice(0, end);
}

const isHashRoute = (fragment: string) => fragment.startsWith('#/') || fragment.startsWith('#!');

/** The normalized form of `url`, or null for an empty one. */
export function normalizePageUrl(url: string): string | null {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const query = beforeHash.indexOf('?');
  const base = query < 0 ? beforeHash : beforeHash.slice(0, query);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const end = originEnd(base);
  const origin = end === 0 ? '' : normalOrigin(base.slice(0, end));
  const path = end === 0 ? base : end === base.length ? '/' : base.slice(end);
  const page = origin + withoutTrailingSlashes(path) + (isHashRoute(fragment) ? fragment : '');
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
  return page.slice(originEnd(page));
}

/** `pagePath` in SQL, of a page expression. */
export const pagePathSql = (page: string): string => `regexp_replace(${page}, '^[A-Za-z][A-Za-z0-9+.-]*://[^/]*', '')`;

/** A part every raw URL of the page contains, for a cheap pre-filter before the exact match. */
export function pathPartOf(page: string): string {
  const rest = pagePath(page);
  const hash = rest.search(/#[/!]/);
  return hash >= 0 ? rest.slice(0, hash) : rest;
}

// A page's normalized URL, as behavior reports group and match events (docs/behavior.md): no query,
// no fragment unless it is a hash route, origin lowercased without its default port, no trailing
// slash. The same rule twice: in TypeScript for request parameters and rules matched at ingest, in
// each engine's SQL for stored events (engine/duckdb/pageUrlSql.ts). Both read a URL once from left to right: the TypeScript by index, the SQL
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

/** A normalized page without its origin: its path, with its hash route if it has one. */
export function pagePath(page: string): string {
  return page.slice(originEnd(page));
}

/** A part every raw URL of the page contains, for a cheap pre-filter before the exact match. */
export function pathPartOf(page: string): string {
  const rest = pagePath(page);
  const hash = rest.search(/#[/!]/);
  return hash >= 0 ? rest.slice(0, hash) : rest;
}

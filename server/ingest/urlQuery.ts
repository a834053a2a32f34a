// Query strings of the page and referrer URLs an event carries, stripped before anything is stored:
// only campaign parameters and the names a project allows are kept (docs/ingestion.md). One pass
// from left to right over the URL, by index: no pattern ever runs on the text.

import { CAMPAIGN_PARAMS } from '../web/webFields.js';

/** Campaign and click-id parameters every project keeps (defined with the web fields that read them). */
export { CAMPAIGN_PARAMS };

/** The parameter names kept in stored URLs; `null` keeps query strings and fragments whole. */
export type KeptParams = ReadonlySet<string> | null;

/** The names kept for a project: the campaign parameters and its allow-list, or null when it keeps whole query strings. */
export function keptParams(strip: boolean, allowlist: readonly string[]): KeptParams {
  return strip ? new Set([...CAMPAIGN_PARAMS, ...allowlist]) : null;
}

/** A parameter's name as a form decodes it (`+` is a space); a malformed escape leaves it as written. */
function decodedName(name: string): string {
  const spaced = name.includes('+') ? name.replaceAll('+', ' ') : name;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** The `&`-separated parameters of `query` (without its `?`) whose decoded names are kept, in their order and as written. */
function keptQuery(query: string, kept: ReadonlySet<string>): string {
  const out: string[] = [];
  let start = 0;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const param = query.slice(start, end);
    const eq = param.indexOf('=');
    if (param !== '' && kept.has(decodedName(eq < 0 ? param : param.slice(0, eq)))) out.push(param);
    start = end + 1;
  }
  return out.length > 0 ? `?${out.join('&')}` : '';
}

/** `text` up to its first `?`, followed by the kept part of what comes after it. */
function withKeptQuery(text: string, kept: ReadonlySet<string>): string {
  const q = text.indexOf('?');
  return q < 0 ? text : text.slice(0, q) + keptQuery(text.slice(q + 1), kept);
}

/**
 * `url` with its query string reduced to the kept parameters. Its fragment: a hash route (`#/…`,
 * `#!…`) keeps its path and has its own query reduced the same way; any other fragment is kept
 * unless it holds a `=` (`#access_token=…`), then it is dropped whole. With `kept` null the URL
 * is returned unchanged.
 */
export function stripUrlQuery(url: string, kept: KeptParams): string {
  if (kept === null) return url;
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const page = withKeptQuery(beforeHash, kept);
  if (hash < 0) return page;
  const fragment = url.slice(hash);
  if (fragment.startsWith('#/') || fragment.startsWith('#!')) return page + withKeptQuery(fragment, kept);
  return fragment.includes('=') ? page : page + fragment;
}

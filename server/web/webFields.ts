// The web analytics fields of an event (docs/web-analytics.md, rules version 1): campaign
// parameters and click ids from the page URL as sent, the referrer's domain and a channel, browser,
// OS and device from the user agent, and the country of the client address. Derived once at
// ingest and stored as `$`-named properties, so every filter and breakdown reads them like any
// property. Pure apart from the user-agent cache and the country list; nothing here stores the
// address.

import { EMAIL_MEDIUMS, EMAIL_SITES, ORGANIC_MEDIUMS, PAID_MEDIUMS, SEARCH_ENGINES, SOCIAL_MEDIUMS, SOCIAL_SITES } from './sourceDomains.js';
import { clientOf, Lru } from './userAgents.js';
import { countryOf } from './countries.js';

/** The campaign parameters and click ids: read before a query string is stripped, and kept by the stripping (ingest/urlQuery.ts). */
export const CAMPAIGN_PARAMS: readonly string[] = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid', 'fbclid', 'msclkid'];

/** The version of these rules; docs/web-analytics.md describes each version. */
export const WEB_FIELDS_VERSION = 1;

export const CHANNELS = ['direct', 'organic search', 'paid search', 'social', 'email', 'referral', 'internal'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Every property name this module may write, in a fixed order. */
export const WEB_PROPERTIES = [
  '$utm_source',
  '$utm_medium',
  '$utm_campaign',
  '$utm_term',
  '$utm_content',
  '$gclid',
  '$fbclid',
  '$msclkid',
  '$referring_domain',
  '$channel',
  '$browser',
  '$browser_version',
  '$os',
  '$device_type',
  '$country',
] as const;
export type WebProperty = (typeof WEB_PROPERTIES)[number];
export type WebFields = Partial<Record<WebProperty, string>>;

/** A campaign value is kept to this many characters. */
export const CAMPAIGN_VALUE_MAX = 200;

/** What the request said about its client: the user agent and address (never stored). */
export interface ClientHints {
  userAgent?: string | null;
  address?: string | null;
}

function decoded(s: string): string {
  const spaced = s.includes('+') ? s.replaceAll('+', ' ') : s;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/**
 * The campaign parameters and click ids of a page URL, the first of each name, from the query
 * and from a hash route's query (`#/page?utm_source=…`). One pass by index; empty values are absent.
 */
export function campaignOf(url: string | null | undefined): Partial<Record<string, string>> {
  const out: Partial<Record<string, string>> = {};
  if (!url) return out;
  let at = url.indexOf('?');
  while (at >= 0) {
    let end = at + 1;
    while (end < url.length && url[end] !== '#' && url[end] !== '?') end++;
    readQuery(url.slice(at + 1, end), out);
    at = url.indexOf('?', end);
  }
  return out;
}

function readQuery(query: string, out: Partial<Record<string, string>>): void {
  let start = 0;
  while (start < query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    const eq = query.indexOf('=', start);
    if (eq > start && eq < end) {
      const name = decoded(query.slice(start, eq)).toLowerCase();
      if (CAMPAIGN_PARAMS.includes(name) && out[name] === undefined) {
        const value = decoded(query.slice(eq + 1, end))
          .trim()
          .slice(0, CAMPAIGN_VALUE_MAX);
        if (value !== '') out[name] = value;
      }
    }
    start = end + 1;
  }
}

/**
 * The host of an absolute URL (`scheme://host…`), lowercased, without user info, port, `www.` and a
 * trailing dot; null if it has none. One scan by index (the URL parser cost more than the rest).
 */
export function domainOf(url: string | null | undefined): string | null {
  if (!url) return null;
  const scheme = url.indexOf('://');
  if (scheme <= 0) return null;
  for (let i = 0; i < scheme; i++) {
    const c = url.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (i > 0 && ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46));
    if (!ok) return null;
  }
  let start = scheme + 3;
  let end = start;
  while (end < url.length) {
    const c = url[end];
    if (c === '/' || c === '?' || c === '#' || c === '\\') break;
    if (c === '@') start = end + 1;
    end++;
  }
  let host = url.slice(start, end);
  if (host.startsWith('[')) return null;
  const colon = host.indexOf(':');
  if (colon >= 0) host = host.slice(0, colon);
  host = host.toLowerCase();
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.startsWith('www.')) host = host.slice(4);
  return host === '' || host.includes(' ') ? null : host;
}

/** A country-code top-level domain, alone or with a generic second level (de, co.uk, com.br). */
function isCountrySuffix(labels: readonly string[]): boolean {
  if (labels.length === 1) return labels[0]!.length === 2 || labels[0] === 'com';
  return labels.length === 2 && labels[1]!.length === 2 && ['co', 'com', 'org', 'net', 'ne', 'or', 'ac', 'gov'].includes(labels[0]!);
}

type DomainList = { exact: Set<string>; anyCountry: Set<string> };

function domainList(names: readonly string[]): DomainList {
  const list: DomainList = { exact: new Set(), anyCountry: new Set() };
  for (const n of names) (n.endsWith('.*') ? list.anyCountry : list.exact).add(n.endsWith('.*') ? n.slice(0, -2) : n);
  return list;
}

const SEARCH = domainList(SEARCH_ENGINES);
const SOCIAL = domainList(SOCIAL_SITES);
const MAIL = domainList(EMAIL_SITES);

/** Whether the domain or one of its parents is on the list. */
function onList(domain: string, list: DomainList): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length; i++) {
    if (list.exact.has(labels.slice(i).join('.'))) return true;
    if (i < labels.length - 1 && list.anyCountry.has(labels[i]!) && isCountrySuffix(labels.slice(i + 1))) return true;
  }
  return false;
}

/** Which lists a domain is on; referrers repeat, so the answers for recent ones are kept. */
interface Listed {
  search: boolean;
  social: boolean;
  mail: boolean;
}
const listed = new Lru<string, Listed>(2000);

function listsOf(domain: string): Listed {
  let l = listed.get(domain);
  if (l === undefined) {
    l = { search: onList(domain, SEARCH), social: onList(domain, SOCIAL), mail: onList(domain, MAIL) };
    listed.set(domain, l);
  }
  return l;
}

export const isSearchEngine = (domain: string) => listsOf(domain).search;
export const isSocialSite = (domain: string) => listsOf(domain).social;

/** The channel rules, first match wins (docs/web-analytics.md lists them in this order). */
export function channelOf(c: { campaign: Partial<Record<string, string>>; referringDomain: string | null; pageDomain: string | null }): Channel {
  const medium = c.campaign.utm_medium?.toLowerCase();
  const source = c.campaign.utm_source?.toLowerCase();
  const ref = c.referringDomain;
  const internal = ref !== null && c.pageDomain !== null && (ref === c.pageDomain || ref.endsWith(`.${c.pageDomain}`) || c.pageDomain.endsWith(`.${ref}`));
  const refLists = ref !== null && !internal ? listsOf(ref) : undefined;
  const mailRef = refLists?.mail === true;
  const socialRef = refLists?.social === true;
  const searchRef = refLists !== undefined && !refLists.mail && refLists.search;
  const sourceDomain = source?.includes('.') ? source : source ? `${source}.com` : null;
  // 1. paid search: a search engine's ad click id, or a paid medium not from a social site.
  if (c.campaign.gclid || c.campaign.msclkid) return 'paid search';
  if (medium && PAID_MEDIUMS.includes(medium) && !socialRef && !(sourceDomain !== null && isSocialSite(sourceDomain))) return 'paid search';
  // 2. email
  if ((medium && EMAIL_MEDIUMS.includes(medium)) || (source && EMAIL_MEDIUMS.includes(source)) || mailRef) return 'email';
  // 3. social
  if ((medium && SOCIAL_MEDIUMS.includes(medium)) || c.campaign.fbclid || socialRef || (sourceDomain !== null && isSocialSite(sourceDomain))) return 'social';
  // 4. organic search
  if (searchRef || (medium && ORGANIC_MEDIUMS.includes(medium)) || (sourceDomain !== null && isSearchEngine(sourceDomain))) return 'organic search';
  // 5. internal: the referrer is the site itself (or a subdomain of it), with no campaign.
  if (internal && !source && !medium) return 'internal';
  // 6. referral: another site, or a campaign none of the rules above names.
  if ((ref !== null && !internal) || source || medium) return 'referral';
  if (internal) return 'internal';
  // 7. direct: no referrer and no campaign.
  return 'direct';
}

/** The web fields of one event: `url` and `referrer` exactly as sent (before query stripping). */
export function webFields(url: string | null | undefined, referrer: string | null | undefined, client: ClientHints): WebFields {
  const out: WebFields = {};
  const campaign = campaignOf(url);
  for (const name of CAMPAIGN_PARAMS) {
    const v = campaign[name];
    if (v !== undefined) out[`$${name}` as WebProperty] = v;
  }
  const referringDomain = domainOf(referrer);
  if (referringDomain) out.$referring_domain = referringDomain;
  if (url || referrer) out.$channel = channelOf({ campaign, referringDomain, pageDomain: domainOf(url) });
  const info = clientOf(client.userAgent);
  if (info.browser) out.$browser = info.browser;
  if (info.browser_version) out.$browser_version = info.browser_version;
  if (info.os) out.$os = info.os;
  if (info.device_type) out.$device_type = info.device_type;
  const country = countryOf(client.address);
  if (country) out.$country = country;
  return out;
}

// Domain binding of browser tokens: the entries an admin may give (a host name, or `*.` and a
// host name for its subdomains) and the match of a request's Origin (else Referer) host.

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`);
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

export const DOMAIN_ENTRY_HELP = 'must be a host name like example.com, or *.example.com for its subdomains';

/** The canonical form of a domain entry (lowercase, no trailing dot), or undefined if it is not one. */
export function normalizeDomainEntry(entry: string): string | undefined {
  const lower = entry.trim().toLowerCase().replace(/\.$/, '');
  if (lower.length === 0 || lower.length > 253) return undefined;
  if (lower.startsWith('*.')) {
    const rest = lower.slice(2);
    return HOST.test(rest) && rest.includes('.') && !IPV4.test(rest) ? lower : undefined;
  }
  return HOST.test(lower) || IPV4.test(lower) ? lower : undefined;
}

/** The host of an Origin or Referer header value; undefined for `null`, opaque or malformed values. */
export function requestHost(origin: string | undefined, referer: string | undefined): string | undefined {
  const source = origin ?? referer;
  if (!source) return undefined;
  try {
    const url = new URL(source);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.hostname.toLowerCase().replace(/\.$/, '') || undefined;
  } catch {
    return undefined;
  }
}

/** Exact entries match only that host; `*.example.com` matches every subdomain, not example.com itself. */
export function hostAllowed(domains: readonly string[], host: string | undefined): boolean {
  if (!host) return false;
  return domains.some((d) => (d.startsWith('*.') ? host.endsWith(d.slice(1)) && host.length > d.length - 1 : host === d));
}

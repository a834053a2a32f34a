// Which addresses an identity provider may live at. Configuring single sign-on makes the server fetch
// URLs an organization owner chose, so by default pp refuses loopback, link-local, private and other
// non-public addresses (whether written as an address or reached through a name) and plain http: an
// owner must not be able to make the appliance probe its own network. The operator can lift both
// with `oidc.allow_private_issuers` for an identity provider inside the same network.

import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
const V4: Array<[string, number]> = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
// An IPv4-mapped address (::ffff:a.b.c.d) is checked against the IPv4 ranges by BlockList itself;
// NAT64 addresses are refused whole rather than decoded.
const V6: Array<[string, number]> = [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
];
for (const [net, prefix] of V4) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** True for an address that is not on the public internet (loopback, private, link-local, …). */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The provider's URL is refused by the address policy; the message is safe to show the owner. */
export class IdpAddressError extends Error {}

export const PRIVATE_REFUSED = 'is a loopback, link-local or private address (or a name resolving to one); pp contacts those only when the operator sets oidc.allow_private_issuers';
export const HTTP_REFUSED = 'is plain http; identity providers must use https unless the operator sets oidc.allow_private_issuers';

/** Refuses what can be refused before connecting: the scheme and an address written in the URL. */
export function checkIdpUrl(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new IdpAddressError(`${url.origin} is not an http(s) URL`);
  if (allowPrivate) return;
  if (url.protocol === 'http:') throw new IdpAddressError(`${url.origin} ${HTTP_REFUSED}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && isNonPublicAddress(host)) throw new IdpAddressError(`${url.origin} ${PRIVATE_REFUSED}`);
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses names resolving to a non-public address. It runs when the
 * connection is made, so the address checked is the address connected to (no second resolution a
 * rebinding name could answer differently).
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    if (addresses.some((a) => isNonPublicAddress(a.address))) {
      return callback(new IdpAddressError(PRIVATE_REFUSED), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

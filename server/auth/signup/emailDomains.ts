// The two domain lists of trial-first signup: disposable providers (refused at registration, from the
// CC0 package disposable-email-domains-js) and free providers (a risk signal, from the common list of
// the package email-providers). Operators extend both in config; the shipped lists come with the release.

import { createRequire } from 'node:module';
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import type { Services } from '../../http/services.js';

const require = createRequire(import.meta.url);

let disposable: ReadonlySet<string> | undefined;
let free: ReadonlySet<string> | undefined;

// Loaded on first use: the disposable list has thousands of entries and on-prem never needs it.
function shippedDisposable(): ReadonlySet<string> {
  return (disposable ??= disposableEmailBlocklistSet());
}

function shippedFree(): ReadonlySet<string> {
  return (free ??= new Set(require('email-providers/common.json') as string[]));
}

/** The part after the last `@`, lower case, without a trailing dot. */
export function domainOf(email: string): string {
  return email
    .slice(email.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
}

/** The domain and each parent of it: `a.b.example.com`, `b.example.com`, `example.com`, `com`. */
function domainAndParents(domain: string): string[] {
  const labels = domain.split('.');
  return labels.map((_, i) => labels.slice(i).join('.'));
}

/** Whether the address belongs to a listed disposable domain or to a subdomain of one. */
export function isDisposableEmail(services: Services, email: string): boolean {
  const extra = services.config.signup.disposable_domains;
  return domainAndParents(domainOf(email)).some((d) => shippedDisposable().has(d) || extra.includes(d));
}

/** Whether the address is at a free mail provider (gmail.com, mail.ru, …): such domains belong to nobody's company. */
export function isFreeEmail(services: Services, email: string): boolean {
  return isFreeDomain(services, domainOf(email));
}

export function isFreeDomain(services: Services, domain: string): boolean {
  return shippedFree().has(domain) || services.config.signup.free_email_domains.includes(domain);
}

// The registrable domain of a host (eTLD+1): its public suffix plus one label, so `mail.acme.co.uk`
// and `acme.co.uk` are one company. Suffixes come from publicSuffixes.ts; any other top-level domain
// (`.com`, `.test`, one nobody knows) is a one-label suffix.

import { MULTI_LABEL_PUBLIC_SUFFIXES } from './publicSuffixes.js';

const SUFFIXES: ReadonlySet<string> = new Set(MULTI_LABEL_PUBLIC_SUFFIXES);
const LONGEST_SUFFIX_LABELS = Math.max(...MULTI_LABEL_PUBLIC_SUFFIXES.map((s) => s.split('.').length));

/** How many trailing labels of `labels` form its public suffix: the longest listed one, else the last. */
function suffixLength(labels: string[]): number {
  for (let n = Math.min(LONGEST_SUFFIX_LABELS, labels.length); n > 1; n--) {
    if (SUFFIXES.has(labels.slice(-n).join('.'))) return n;
  }
  return 1;
}

/** `a.b.acme.co.uk` → `acme.co.uk`; a host that is itself a public suffix (or one label) is its own. */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const keep = suffixLength(labels) + 1;
  return labels.length <= keep ? labels.join('.') : labels.slice(-keep).join('.');
}

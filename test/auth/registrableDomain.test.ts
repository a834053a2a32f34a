// The registrable domain the signup domain rule compares: a listed multi-label public suffix plus
// one label, else the top-level domain plus one label, whatever the top-level domain is.

import t from 'tap';
import { registrableDomain } from '../../server/auth/signup/registrableDomain.js';

const CASES: Array<[string, string, string]> = [
  ['acme-corp.test', 'acme-corp.test', 'the domain itself'],
  ['mail.acme-corp.test', 'acme-corp.test', 'a subdomain'],
  ['a.b.c.acme-corp.test', 'acme-corp.test', 'a deep subdomain'],
  ['Mail.ACME-Corp.Test.', 'acme-corp.test', 'letter case and a trailing dot'],
  ['acme.co.uk', 'acme.co.uk', 'under a listed two-label suffix'],
  ['mail.acme.co.uk', 'acme.co.uk', 'a subdomain under a listed suffix'],
  ['acme.com.au', 'acme.com.au', 'com.au'],
  ['eu.acme.co.jp', 'acme.co.jp', 'co.jp'],
  ['acme.uk', 'acme.uk', 'a name directly under uk'],
  ['co.uk', 'co.uk', 'a public suffix is its own'],
  ['mail.acme.unknowntld', 'acme.unknowntld', 'an unknown top-level domain is one label'],
  ['localhost', 'localhost', 'one label'],
];

t.test('registrable domains', async (t) => {
  for (const [host, expected, why] of CASES) t.equal(registrableDomain(host), expected, `${host}: ${why}`);
  t.not(registrableDomain('a.co.uk'), registrableDomain('b.co.uk'), 'two companies under one shared suffix');
});

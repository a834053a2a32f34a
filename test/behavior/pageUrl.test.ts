// The page URL normalization read by index against the regular expressions it replaced, kept here
// as the reference: the same page for random URLs made of the characters the rules turn on, and
// for the long runs of one character that made the old trailing-slash rule quadratic.

import t from 'tap';
import fc from 'fast-check';
import { normalizePageUrl, pagePath, pathPartOf } from '../../server/behavior/pageUrl.js';

const PARTS = /^([^#?]*)(\?[^#]*)?(#.*)?$/s;
const ORIGIN = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*)(.*)$/s;

function regexNormalizePageUrl(url: string): string | null {
  const [, base = '', , fragment = ''] = PARTS.exec(url) ?? [];
  const split = ORIGIN.exec(base);
  let origin = '';
  let path = base;
  if (split) {
    origin = split[1]!
      .toLowerCase()
      .replace(/^(http:\/\/.*):80$/s, '$1')
      .replace(/^(https:\/\/.*):443$/s, '$1');
    path = split[2]! === '' ? '/' : split[2]!;
  }
  path = path.replace(/(.)\/+$/s, '$1');
  const page = origin + path + (/^#[/!]/.test(fragment) ? fragment : '');
  return page === '' ? null : page;
}

function regexPagePath(page: string): string {
  const split = ORIGIN.exec(page);
  return split ? split[2]! : page;
}

/** Pieces of URLs: schemes in several cases, default and other ports, separators, and characters that are none. */
const PIECES = [
  'http://',
  'https://',
  'HTTP://',
  'Https://',
  'ftp://',
  'a+b.c-d://',
  '1http://',
  'http:/',
  '://',
  ':80',
  ':443',
  ':8080',
  ':',
  '/',
  '//',
  '?',
  '#',
  '#/',
  '#!',
  '!',
  '.',
  '+',
  '-',
  'Shop.Example.com',
  'a',
  'b',
  'é',
  '😀',
  '\n',
  ' ',
  '%2F',
  '80',
  '443',
];
const urlArb = fc.array(fc.constantFrom(...PIECES), { minLength: 0, maxLength: 12 }).map((parts) => parts.join(''));

t.test('the same page as the regular expressions, for random URLs', async (t) => {
  let differing = 0;
  fc.assert(
    fc.property(urlArb, (url) => {
      const page = normalizePageUrl(url);
      if (page !== regexNormalizePageUrl(url)) differing += 1;
      if (page !== null && pagePath(page) !== regexPagePath(page)) differing += 1;
      return page === regexNormalizePageUrl(url) && (page === null || pagePath(page) === regexPagePath(page));
    }),
    { numRuns: 20_000, seed: 20261127 },
  );
  t.equal(differing, 0);
});

t.test('hand-picked URLs', async (t) => {
  const cases: Array<[string, string | null]> = [
    ['', null],
    ['?x=1#top', null],
    ['HTTPS://Shop.Example.com:443/Cart//?x=1#/a/', 'https://shop.example.com/Cart#/a/'],
    ['http://h:80', 'http://h/'],
    ['http://:80', 'http:///'],
    ['https://h:4430/', 'https://h:4430/'],
    ['///', '/'],
    ['/a///#!x', '/a#!x'],
    ['mailto:x@y', 'mailto:x@y'],
  ];
  for (const [url, page] of cases) {
    t.equal(normalizePageUrl(url), page, url);
    t.equal(regexNormalizePageUrl(url), page, `${url} (reference)`);
  }
  t.equal(pathPartOf('https://h/a/b#/c'), '/a/b');
});

t.test('long runs of one character give the same page', async (t) => {
  for (const ch of ['/', 'a', ':', '%', '#', '?', '.']) {
    for (const url of [ch.repeat(4000), `https://h/${ch.repeat(4000)}x`, `https://h${ch.repeat(4000)}`, `/${ch.repeat(4000)}/`]) {
      t.equal(normalizePageUrl(url), regexNormalizePageUrl(url), `${JSON.stringify(url.slice(0, 12))}… (${url.length})`);
    }
  }
});

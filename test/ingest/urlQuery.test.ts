// Query strings of stored URLs, case by case: only campaign parameters and a project's allow-list
// are kept, in their order and as written, names compared once decoded; fragments keep their
// anchor or hash route and lose what looks like parameters; long input stays linear.

import t from 'tap';
import { CAMPAIGN_PARAMS, keptParams, stripUrlQuery } from '../../server/ingest/urlQuery.js';

const DEFAULT = keptParams(true, []);
const WITH_PAGE = keptParams(true, ['page', 'q', 'a b', 'ü']);

t.test('a table of URLs', async (t) => {
  const cases: Array<[string, string, ReturnType<typeof keptParams>]> = [
    ['https://shop.example/login?user=ann&password=hunter2', 'https://shop.example/login', DEFAULT],
    ['https://shop.example/?utm_source=mail&password=x&utm_campaign=fall', 'https://shop.example/?utm_source=mail&utm_campaign=fall', DEFAULT],
    // Order as sent, not as listed.
    ['/p?utm_campaign=c&gclid=g&utm_source=s&fbclid=f&msclkid=m', '/p?utm_campaign=c&gclid=g&utm_source=s&fbclid=f&msclkid=m', DEFAULT],
    ['/p?utm_term=a&utm_medium=b&utm_content=c', '/p?utm_term=a&utm_medium=b&utm_content=c', DEFAULT],
    // Repeated parameters each kept; empty values and valueless names too.
    ['/p?utm_source=a&x=1&utm_source=b', '/p?utm_source=a&utm_source=b', DEFAULT],
    ['/p?utm_source=&utm_medium', '/p?utm_source=&utm_medium', DEFAULT],
    ['/p?=1&&utm_source=a&', '/p?utm_source=a', DEFAULT],
    // `?` alone, or nothing kept: no `?` left.
    ['https://shop.example/cart?', 'https://shop.example/cart', DEFAULT],
    ['https://shop.example/cart?&&&', 'https://shop.example/cart', DEFAULT],
    ['https://shop.example/cart', 'https://shop.example/cart', DEFAULT],
    ['?', '', DEFAULT],
    ['', '', DEFAULT],
    // Names are compared once decoded (`%5F` is `_`, `+` a space); values stay as written.
    ['/p?utm%5Fsource=a%20b&pass%77ord=x', '/p?utm%5Fsource=a%20b', DEFAULT],
    ['/s?a+b=1&a%20b=2&ab=3', '/s?a+b=1&a%20b=2', WITH_PAGE],
    ['/s?%C3%BC=1&%FC=2', '/s?%C3%BC=1', WITH_PAGE],
    // A malformed escape is compared as written.
    ['/p?utm_source%=a&%E0%A4%A=b', '/p', DEFAULT],
    // Case matters: UTM_SOURCE is another parameter.
    ['/p?UTM_SOURCE=a&Page=2&page=3', '/p?page=3', WITH_PAGE],
    ['/search?q=shoes&page=2&session=abc', '/search?q=shoes&page=2', WITH_PAGE],
    // Fragments: an anchor stays, one holding parameters goes, a hash route keeps its path and loses its query.
    ['https://shop.example/doc?x=1#pricing', 'https://shop.example/doc#pricing', DEFAULT],
    ['https://app.example/cb#access_token=abc&state=1', 'https://app.example/cb', DEFAULT],
    ['https://app.example/cb?utm_source=a#token=abc', 'https://app.example/cb?utm_source=a', DEFAULT],
    ['https://app.example/#/reset?token=abc&utm_medium=m', 'https://app.example/#/reset?utm_medium=m', DEFAULT],
    ['https://app.example/#!/items?page=2&secret=s', 'https://app.example/#!/items?page=2', WITH_PAGE],
    ['https://app.example/#/items', 'https://app.example/#/items', DEFAULT],
    ['https://app.example/#', 'https://app.example/#', DEFAULT],
    // A `?` after the fragment starts is not the query; an anchor followed by parameters goes whole.
    ['/p#top?utm_source=a', '/p', DEFAULT],
    ['/p#top?', '/p#top?', DEFAULT],
    ['mailto:a@example.com?subject=hi', 'mailto:a@example.com', DEFAULT],
  ];
  for (const [url, stored, kept] of cases) t.equal(stripUrlQuery(url, kept), stored, url);
});

t.test('kept whole when the project keeps full query strings', async (t) => {
  const kept = keptParams(false, ['page']);
  t.equal(kept, null);
  for (const url of ['https://a.example/login?password=x#access_token=y', '/#/r?token=t', '?']) t.equal(stripUrlQuery(url, kept), url, url);
});

t.test('the campaign parameters', async (t) => {
  t.same(CAMPAIGN_PARAMS, ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'gclid', 'fbclid', 'msclkid']);
});

t.test('linear in the length of the URL', async (t) => {
  const kept = keptParams(
    true,
    Array.from({ length: 50 }, (_, i) => `name_${i}`),
  );
  const long = (unit: string) => `https://a.example/p?${unit.repeat(Math.ceil(200_000 / unit.length))}`;
  const inputs = ['utm_source=1&', 'x=1&', '&', '%', '%41&', '+&', '?', '=', '#/?a=1&', 'name_49=%%&'].map(long);
  inputs.push(`https://a.example/#/${'?&'.repeat(100_000)}`, `https://a.example/#${'='.repeat(200_000)}`);
  for (const url of inputs) {
    const started = process.cpuUsage();
    stripUrlQuery(url, kept);
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    t.ok(ms < 200, `${JSON.stringify(url.slice(20, 40))}… (${url.length}): ${ms.toFixed(1)} ms`);
  }
  t.equal(stripUrlQuery(long('x=1&'), kept), 'https://a.example/p');
  t.equal(stripUrlQuery(long('utm_source=1&'), kept).length, long('utm_source=1&').length - 1, 'every kept parameter, the trailing empty one dropped');
});

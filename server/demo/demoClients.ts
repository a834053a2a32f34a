// The demo visitors' browsers and addresses: real user agents in a realistic mix (mostly Chrome,
// a third on phones) and public addresses of a dozen countries, forwarded as `$user_agent` and
// `$ip` the way a server-side sender forwards its visitor's, so the Web page has every table full.
// Chosen from the visitor's id, so the seeded draws of demoEvents.ts stay as they were.

const AGENTS: Array<[weight: number, ua: string]> = [
  [22, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  [10, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  [8, 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15'],
  [6, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  [5, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0'],
  [3, 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'],
  [2, 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36'],
  [14, 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'],
  [12, 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36'],
  [5, 'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36'],
  [4, 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1'],
  [2, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.4.0.0 Safari/537.36'],
  [2, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/110.0.0.0'],
];

/** One public address per country (DB-IP places each there), weighted like a European SaaS audience. */
const ADDRESSES: Array<[weight: number, address: string]> = [
  [20, '8.8.4.4'], // US
  [16, '85.214.132.117'], // DE
  [10, '81.2.69.160'], // GB
  [8, '95.108.213.1'], // RU
  [6, '1.1.1.1'], // AU
  [5, '2a01:4f8::1'], // DE, over IPv6
  [5, '163.172.0.1'], // FR
  [4, '145.100.0.1'], // NL
  [4, '200.160.2.3'], // BR
  [4, '117.239.0.1'], // IN
  [3, '133.242.0.1'], // JP
  [3, '99.224.0.1'], // CA
];

function weighted<T>(items: Array<[number, T]>, x: number): T {
  const total = items.reduce((s, [w]) => s + w, 0);
  let at = x * total;
  for (const [w, item] of items) {
    if (at < w) return item;
    at -= w;
  }
  return items[items.length - 1]![1];
}

/** Two fractions from a visitor's hex id. */
export function demoClient(anonymousId: string): { $user_agent: string; $ip: string } {
  const hex = anonymousId.replaceAll('-', '');
  const a = parseInt(hex.slice(0, 8), 16) / 2 ** 32;
  const b = parseInt(hex.slice(8, 16), 16) / 2 ** 32;
  return { $user_agent: weighted(AGENTS, a), $ip: weighted(ADDRESSES, b) };
}

// The web fields' rules on a table of real user agents, referrers, page URLs and addresses
// (derivationCases.json), then through ingestion: a browser key's request headers, a server key's
// forwarded `$user_agent` and `$ip`, and the address never stored.

import t from 'tap';
import cases from './derivationCases.json' with { type: 'json' };
import { parseUserAgent, Lru } from '../../server/web/userAgents.js';
import { campaignOf, channelOf, domainOf, webFields } from '../../server/web/webFields.js';
import { countryOf } from '../../server/web/countries.js';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, storedEvents, type TestKey } from '../support/ingest.js';

t.test('user agents: browser, major version, OS and device type', async (t) => {
  for (const c of cases.user_agents) {
    const got = parseUserAgent(c.ua);
    t.strictSame(got, { browser: c.browser, browser_version: c.browser_version, os: c.os, device_type: c.device_type }, c.ua || '(empty)');
  }
});

t.test('referrers: domain and channel', async (t) => {
  for (const c of cases.referrers) {
    const referringDomain = domainOf(c.referrer);
    t.equal(referringDomain, c.referring_domain, `domain of ${c.referrer}`);
    t.equal(channelOf({ campaign: campaignOf(c.url), referringDomain, pageDomain: domainOf(c.url) }), c.channel, `${c.referrer} → ${c.url}`);
  }
});

t.test('page URLs: campaign parameters and click ids', async (t) => {
  for (const c of cases.urls) {
    const fields = Object.fromEntries(Object.entries(webFields(c.url, null, {})).filter(([k]) => k !== '$channel'));
    t.strictSame(fields, c.fields, c.url.slice(0, 120));
  }
});

t.test('addresses: country', async (t) => {
  for (const c of cases.addresses) t.equal(countryOf(c.address), c.country, c.address || '(empty)');
});

t.test('the user-agent cache keeps the most recently used', async (t) => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  lru.get('a');
  lru.set('c', 3); // b is the least recently used
  t.equal(lru.get('b'), undefined);
  t.equal(lru.get('a'), 1);
  t.equal(lru.size, 2);
});

t.test('through ingestion', async (t) => {
  const server = await startTestServer(t);
  const tenant = await createTenant(server);
  const browserKey = createIngestKey(server, tenant.project, { type: 'browser', domains: ['shop.example.com'] });
  const serverKey = createIngestKey(server, tenant.project);
  const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1';
  const send = (key: TestKey, event: unknown, headers: Record<string, string>) => ingestEvents(server, key, [event], { headers });
  // A browser's page view: its own user agent; the loopback address has no country.
  const a = await send(
    browserKey,
    { event: 'pp.page_view', anonymous_id: 'v1', url: 'https://shop.example.com/?utm_source=news&utm_medium=email&secret=1', referrer: 'https://mail.google.com/' },
    { 'user-agent': iphone, origin: 'https://shop.example.com' },
  );
  t.equal(a.status, 202, a.text);
  // A server forwarding its visitor: the forwarded user agent and address win; $ip is not stored.
  const b = await send(
    serverKey,
    { event: 'signup', user_id: 'u1', url: 'https://shop.example.com/signup', props: { $user_agent: iphone, $ip: '85.214.132.117', plan: 'pro' } },
    { 'user-agent': 'pp-node/1.0' },
  );
  t.equal(b.status, 202, b.text);
  // A server key's own user agent describes the server, not a visitor: nothing derived from it.
  const c = await send(serverKey, { event: 'job_done', user_id: 'u1' }, { 'user-agent': iphone });
  t.equal(c.status, 202, c.text);
  const rows = await storedEvents(server, tenant.project.id);
  const byEvent = Object.fromEntries(rows.map((r) => [String(r.event), { url: r.url, props: r.props === null ? null : JSON.parse(String(r.props)) }]));
  t.equal(byEvent['pp.page_view']!.url, 'https://shop.example.com/?utm_source=news&utm_medium=email'); // stripped after the fields were read
  t.strictSame(byEvent['pp.page_view']!.props, {
    $utm_source: 'news',
    $utm_medium: 'email',
    $referring_domain: 'mail.google.com',
    $channel: 'email',
    $browser: 'Safari',
    $browser_version: '17',
    $os: 'iOS',
    $device_type: 'mobile',
  });
  t.strictSame(byEvent.signup!.props, { $user_agent: iphone, plan: 'pro', $channel: 'direct', $browser: 'Safari', $browser_version: '17', $os: 'iOS', $device_type: 'mobile', $country: 'DE' });
  t.equal(byEvent.job_done!.props, null);
  t.notOk(JSON.stringify(rows).includes('85.214'), 'the address is stored nowhere');

  // The events list filters on them like on any property.
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  const list = (filters: string, extra = '') => server.request('GET', `/api/v1/projects/${tenant.project.id}/events?filters=${encodeURIComponent(filters)}${extra}`, { token });
  const de = await list(JSON.stringify([{ field: 'props.$country', op: 'eq', value: 'DE' }]));
  t.equal(de.status, 200, de.text);
  t.strictSame(
    de.body.items.map((e: { event: string }) => e.event),
    ['signup'],
  );
  const mobile = await list(
    JSON.stringify([
      { field: 'props.$device_type', op: 'eq', value: 'mobile' },
      { field: 'props.$channel', op: 'in', value: ['email', 'direct'] },
    ]),
  );
  t.strictSame(mobile.body.items.map((e: { event: string }) => e.event).sort(), ['pp.page_view', 'signup']);
  const bad = await list('{"field":"props.$country"}');
  t.equal(bad.status, 422);
  t.match(bad.body.error.message, /filters must be a JSON-encoded array/);
  const doctor = await list('[]', `&view=doctor&from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z`);
  t.equal(doctor.status, 422);
});

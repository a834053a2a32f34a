// PostHog-compatible capture over real HTTP, with payloads shaped as posthog-node and posthog-js
// send them: every encoding (JSON, Content-Encoding gzip, ?compression=gzip-js, base64 form), the
// key from the payload held to its scopes and domains, the mapping onto pp's events (page views,
// autocaptured clicks with their elements, page leave as scroll depth, custom events), identify,
// alias and $set/$set_once, numeric distinct ids, refusals per event, the flags endpoints, and the
// limits (a gzip bomb is refused, not inflated).

import t from 'tap';
import { gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, readTable } from '../support/ingest.js';
import { resolveActor } from '../../server/ingest/identity.js';
import { decodePosthogBody, mapPosthogEvent, POSTHOG_INFLATED_MAX_BYTES } from '../../server/ingest/posthog.js';

const NOW = '2026-11-02T12:00:00.000Z';

t.test('decoding what the clients send', async (t) => {
  const payload = { api_key: 'k', batch: [{ event: 'x', distinct_id: 'd' }] };
  const json = JSON.stringify(payload);
  const meta = { contentType: 'application/json', contentEncoding: undefined, compression: undefined };
  t.same(await decodePosthogBody(Buffer.from(json), meta), payload, 'plain JSON');
  t.same(await decodePosthogBody(gzipSync(json), { ...meta, contentType: 'text/plain', compression: 'gzip-js' }), payload, 'gzip-js');
  t.same(await decodePosthogBody(gzipSync(json), { ...meta, contentType: 'text/plain' }), payload, 'gzip recognised by its magic bytes');
  const form = `data=${encodeURIComponent(Buffer.from(json).toString('base64'))}`;
  t.same(await decodePosthogBody(Buffer.from(form), { ...meta, contentType: 'application/x-www-form-urlencoded', compression: 'base64' }), payload, 'base64 in a form');
  t.same(await decodePosthogBody(Buffer.from(`data=${encodeURIComponent(json)}`), { ...meta, contentType: 'application/x-www-form-urlencoded' }), payload, 'JSON in a form');
  await t.rejects(decodePosthogBody(Buffer.from('{nope'), meta), { status: 400, message: 'request body is not valid JSON' });
  await t.rejects(decodePosthogBody(Buffer.from([0x1f, 0x8b, 1, 2, 3]), meta), { status: 400, message: 'request body could not be decompressed' });
  const bomb = gzipSync(Buffer.alloc(POSTHOG_INFLATED_MAX_BYTES + 1024, 0x20));
  t.ok(bomb.length < 100_000, `a ${bomb.length}-byte body`);
  await t.rejects(decodePosthogBody(bomb, { ...meta, compression: 'gzip-js' }), { status: 413, message: /exceeds 10485760 bytes/ }, 'that inflates past the limit is refused');
});

t.test('mapping', async (t) => {
  t.match(
    mapPosthogEvent({
      event: '$pageview',
      distinct_id: 'dev-1',
      properties: { $device_id: 'dev-1', $current_url: 'https://shop.example/a', $referrer: '$direct', $session_id: 's1', $browser: 'Chrome' },
    }),
    {
      kind: 'event',
      event: { event: 'pp.page_view', anonymous_id: 'dev-1', user_id: null, session_id: 's1', url: 'https://shop.example/a', referrer: null, props: { $browser: 'Chrome' } },
    },
  );
  t.match(mapPosthogEvent({ event: 'signup', distinct_id: 'u-1', properties: { $device_id: 'dev-1' } }), { event: { anonymous_id: 'dev-1', user_id: 'u-1' } }, 'identified in the browser');
  t.match(mapPosthogEvent({ event: 'signup', distinct_id: 42, properties: {} }), { event: { anonymous_id: null, user_id: '42' } }, 'a server library names a known user, a number as text');
  t.match(mapPosthogEvent({ event: 'x', distinct_id: 'a', properties: { $is_identified: false } }), { event: { anonymous_id: 'a', user_id: null } });
  t.match(mapPosthogEvent({ event: '$pageleave', distinct_id: 'a', properties: { $device_id: 'a', $prev_pageview_max_scroll_percentage: 0.734, $prev_pageview_max_scroll: 2200 } }), {
    event: { event: 'pp.scroll_depth', props: { percent: 73, pixels: 2200 } },
  });
  t.match(mapPosthogEvent({ event: '$identify', distinct_id: 'u-1', properties: { $anon_distinct_id: 'dev-1', $set: { plan: 'pro' } } }), {
    kind: 'identify',
    anonymousId: 'dev-1',
    userId: 'u-1',
    set: { plan: 'pro' },
  });
  t.match(mapPosthogEvent({ event: '$create_alias', distinct_id: 'u-1', properties: { alias: 'old-7' } }), { kind: 'alias', previousId: 'old-7', userId: 'u-1' });
  t.match(mapPosthogEvent({ event: '$groupidentify', distinct_id: 'u-1', properties: {} }), { kind: 'skip' });
  t.match(mapPosthogEvent({ distinct_id: 'u' }), { kind: 'refuse', refusal: { code: 'event_required' } });
  t.match(mapPosthogEvent({ event: 'x', properties: {} }), { kind: 'refuse', refusal: { code: 'identity_required' } });
});

t.test('capture over HTTP', async (t) => {
  const server = await startTestServer(t, { now: new Date(NOW) });
  const { project } = await createTenant(server);
  const serverKey = createIngestKey(server, project);
  const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
  const page = { origin: 'https://shop.example' };
  const events = () =>
    readTable(
      server,
      'SELECT event, distinct_id, anonymous_id, user_id, session_id, url, referrer, source, sdk_name, sdk_version, props, el_tags, el_ids, el_text FROM events WHERE project_id = $1 ORDER BY ts, event',
      [project.id],
    );

  await t.test('posthog-node: {api_key, batch} gzip-encoded to /batch/', async (t) => {
    const uuid = randomUUID();
    const body = {
      api_key: serverKey.value,
      batch: [
        {
          event: 'order_placed',
          distinct_id: 'user-1',
          uuid,
          timestamp: '2026-11-02T11:00:00.000Z',
          properties: { $lib: 'posthog-node', $lib_version: '5.70.0', revenue: 12.5, $set: { plan: 'pro' } },
        },
        { event: '$identify', distinct_id: 'user-1', properties: { $set: { email: 'a@shop.example' }, $set_once: { plan: 'free', first_seen: '2026-01-01' } } },
      ],
      sent_at: NOW,
    };
    const res = await server.request('POST', '/batch/', { raw: gzipSync(JSON.stringify(body)), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    t.equal(res.status, 200, res.text);
    t.same(res.body, { status: 1, accepted: 2, rejected: [] });
    const rows = await events();
    t.match(rows, [{ event: 'order_placed', distinct_id: 'user-1', user_id: 'user-1', anonymous_id: null, source: 'server', sdk_name: 'posthog-node', sdk_version: '5.70.0' }]);
    t.same(JSON.parse(String(rows[0]!.props)), { revenue: 12.5 }, 'properties kept, PostHog bookkeeping lifted');
    const [stored] = await readTable(server, 'SELECT uuid::VARCHAR AS uuid, revenue FROM events WHERE project_id = $1', [project.id]);
    t.same([stored!.uuid, stored!.revenue], [uuid, 12.5], 'its uuid and revenue');
    const traits = await readTable(server, 'SELECT traits FROM actor_traits WHERE project_id = $1 AND user_id = $2', [project.id, 'user-1']);
    t.same(JSON.parse(String(traits[0]!.traits)), { plan: 'pro', email: 'a@shop.example', first_seen: '2026-01-01' }, '$set wins, $set_once keeps what was there');
    const again = await server.request('POST', '/batch', { body });
    t.equal(again.status, 200, 'the same batch again, plain JSON, without the slash');
    t.equal((await events()).length, 1, 'stored once by its uuid');
  });

  await t.test('posthog-js: gzip-js and base64 to /e/ with the token in the properties', async (t) => {
    const ev = (event: string, extra: Record<string, unknown> = {}) => ({
      event,
      timestamp: '2026-11-02T11:30:00.000Z',
      properties: {
        token: browser.value,
        distinct_id: 'dev-9',
        $device_id: 'dev-9',
        $session_id: 'sess-9',
        $current_url: 'https://shop.example/pricing?utm_source=mail&secret=1',
        $lib: 'web',
        $lib_version: '1.449.2',
        ...extra,
      },
    });
    const gz = await server.request('POST', '/e/?compression=gzip-js&ver=1.449.2', {
      raw: gzipSync(
        JSON.stringify([
          ev('$pageview'),
          ev('$autocapture', {
            $event_type: 'click',
            $elements: [
              { tag_name: 'button', attr__id: 'buy', classes: ['cta', 'big'], nth_child: 2, $el_text: 'Buy', attr__href: '/cart' },
              { tag_name: 'div', attr__class: 'hero wide' },
            ],
          }),
        ]),
      ),
      headers: { 'content-type': 'text/plain', ...page },
    });
    t.equal(gz.status, 200, gz.text);
    t.same(gz.body, { status: 1, accepted: 2, rejected: [] });
    t.equal(gz.headers.get('access-control-allow-origin'), 'https://shop.example', 'readable by the page');
    const form = `data=${encodeURIComponent(Buffer.from(JSON.stringify(ev('$pageleave', { $prev_pageview_max_scroll_percentage: 0.5 }))).toString('base64'))}`;
    const b64 = await server.request('POST', '/i/v0/e/?compression=base64', { raw: form, headers: { 'content-type': 'application/x-www-form-urlencoded', ...page } });
    t.equal(b64.status, 200, b64.text);
    const rows = (await events()).filter((r) => r.distinct_id === 'dev-9');
    t.same(rows.map((r) => r.event).sort(), ['pp.click', 'pp.page_view', 'pp.scroll_depth']);
    const view = rows.find((r) => r.event === 'pp.page_view')!;
    t.match(
      view,
      { anonymous_id: 'dev-9', user_id: null, session_id: 'sess-9', url: 'https://shop.example/pricing?utm_source=mail', source: 'browser', sdk_name: 'web' },
      'the URL stripped like any other',
    );
    const click = rows.find((r) => r.event === 'pp.click')!;
    const list = (v: unknown) => (v as { items: unknown[] }).items;
    t.same([list(click.el_tags), list(click.el_ids), click.el_text], [['button', 'div'], ['buy', null], 'Buy'], 'the element chain, as labeled rules read it');
    t.equal(JSON.parse(String(rows.find((r) => r.event === 'pp.scroll_depth')!.props)).percent, 50);

    const preflight = await server.request('OPTIONS', '/e/', { headers: { ...page, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
    t.equal(preflight.status, 204, 'a JSON post from a page is preflighted');
  });

  await t.test('identify and alias from the browser merge people', async (t) => {
    const identify = { event: '$identify', properties: { token: browser.value, distinct_id: 'user-9', $anon_distinct_id: 'dev-9', $device_id: 'dev-9', $set: { name: 'Ana' } } };
    const alias = { event: '$create_alias', properties: { token: browser.value, distinct_id: 'user-9', alias: 'legacy-9' } };
    const res = await server.request('POST', '/e/', {
      body: [identify, alias, { event: 'purchase', properties: { token: browser.value, distinct_id: 'user-9', $device_id: 'dev-9' } }],
      headers: page,
    });
    t.same(res.body, { status: 1, accepted: 3, rejected: [] });
    const services = server.running.services;
    t.equal(await resolveActor(services, project.id, 'dev-9'), 'user-9', 'the device is the user now');
    t.equal(await resolveActor(services, project.id, 'legacy-9'), 'user-9');
    const purchase = (await events()).find((r) => r.event === 'purchase')!;
    t.match(purchase, { anonymous_id: 'dev-9', user_id: 'user-9' });
  });

  await t.test('refusals: no or unknown key, a page of another domain, bad events one by one', async (t) => {
    t.equal((await server.request('POST', '/batch/', { body: { batch: [{ event: 'x', distinct_id: 'd' }] } })).status, 401, 'no key');
    t.equal((await server.request('POST', '/batch/', { body: { api_key: 'phc_not_ours', batch: [{ event: 'x', distinct_id: 'd' }] } })).status, 401, 'a PostHog project key');
    const elsewhere = await server.request('POST', '/e/', { body: { event: 'x', properties: { token: browser.value, distinct_id: 'd' } }, headers: { origin: 'https://evil.example' } });
    t.equal(elsewhere.status, 403);
    t.equal(elsewhere.body.error.code, 'credential_origin_forbidden');
    t.equal((await server.request('POST', '/batch/', { body: { api_key: serverKey.value, batch: [] } })).status, 422, 'no events');
    t.equal(
      (await server.request('POST', '/batch/', { body: { api_key: serverKey.value, batch: Array.from({ length: 501 }, () => ({ event: 'x', distinct_id: 'd' })) } })).status,
      413,
      'more than 500 events',
    );
    t.equal((await server.request('POST', '/batch/', { raw: '{not json', headers: { 'content-type': 'application/json' } })).status, 400);
    const mixed = await server.request('POST', '/batch/', {
      body: { api_key: serverKey.value, batch: [{ distinct_id: 'd' }, { event: 'ok', distinct_id: 'd' }, 'text', { event: 'anon' }, { event: 'x', distinct_id: 'd', uuid: 'not-a-uuid' }] },
    });
    t.equal(mixed.status, 200);
    t.same(
      mixed.body.rejected.map((r: { index: number; code: string }) => [r.index, r.code]),
      [
        [0, 'event_required'],
        [2, 'invalid_event'],
        [3, 'identity_required'],
        [4, 'invalid_field'],
      ],
    );
    t.equal(mixed.body.accepted, 1);
  });

  await t.test('flags: none, so the clients keep capturing', async (t) => {
    for (const [method, path] of [
      ['POST', '/decide/?v=4'],
      ['POST', '/flags/?v=2&config=true'],
      ['GET', '/flags/'],
    ] as const) {
      const res = await server.request(method, path, method === 'POST' ? { body: { token: browser.value, distinct_id: 'x' } } : {});
      t.equal(res.status, 200, path);
      t.match(res.body, { flags: {}, featureFlags: {}, sessionRecording: false, errorsWhileComputingFlags: false });
    }
  });
});

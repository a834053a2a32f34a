// POST /v1/track through real HTTP: validation, normalization of what is stored (query strings of
// URLs stripped to what the project keeps), per-event refusals and their doctor records, uuid
// idempotency, limits, beacons and CORS.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { countRows, createIngestKey, createLegacyKey, ingestEvents, readTable, storedEvents } from '../support/ingest.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { eventBus, type CommittedEvent } from '../../server/ingest/eventBus.js';

const NOW = '2026-11-02T12:00:00.000Z';

t.test('track', async (t) => {
  const server = await startTestServer(t, { now: new Date(NOW) });
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);

  t.test('401 without a credential', async (t) => {
    const res = await server.request('POST', '/v1/track', { body: { events: [{ event: 'a', anonymous_id: 'x' }] } });
    t.equal(res.status, 401);
    t.same(res.body, { error: { code: 'unauthorized', message: 'authentication required', details: {} } });
  });

  t.test('422 for a malformed envelope, with the exact message', async (t) => {
    const cases: Array<[unknown, string]> = [
      [{ events: 'x' }, 'invalid request body: events must be array'],
      [{ events: [] }, 'invalid request body: events must NOT have fewer than 1 items'],
      [{ events: [{ event: 'a', anonymous_id: 'x' }], extra: 1 }, 'invalid request body: extra is not a known field'],
      [{ events: [{ event: 'a', anonymous_id: 'x' }], tracker: 'no version' }, 'invalid request body: tracker must match pattern "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$"'],
    ];
    for (const [body, message] of cases) {
      const res = await server.request('POST', '/v1/track', { token: key.value, body });
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.message, message);
    }
    const header = await ingestEvents(server, key, [{ event: 'a', anonymous_id: 'x' }], { headers: { 'x-pp-tracker': 'bad header' } });
    t.equal(header.status, 422);
    t.equal(header.body.error.message, 'X-PP-Tracker must look like name/version, e.g. pp-browser/0.6.5');
    t.equal(await countRows(server, 'events', project.id), 0, 'nothing stored by refused requests');
  });

  t.test('stored events are normalized', async (t) => {
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const res = await ingestEvents(
      server,
      key,
      [
        // A server-side purchase: revenue as a number, client ts kept, url split and its query stripped.
        {
          event: 'purchase',
          uuid: ids[0],
          ts: '2026-11-02T11:59:00+03:00',
          user_id: 'u1',
          anonymous_id: 'a1',
          session_id: 's1',
          url: 'https://shop.example/cart?x=1#top',
          referrer: 'https://google.example/',
          release: 'v1.2.3',
          props: { revenue: 1250.5, plan: 'pro' },
        },
        // A refund as a numeric string: signed.
        { event: 'refund', uuid: ids[1].toUpperCase(), anonymous_id: 'a1', props: { revenue: ' -300 ' }, url: '/account/refunds?id=9' },
        // Soft defects: non-numeric revenue and a clock two hours ahead; still stored. A URL
        // without a path (another scheme's) leaves none.
        { event: 'odd', uuid: ids[2], anonymous_id: 'a2', ts: '2026-11-02T14:00:01Z', props: { revenue: 'a lot' }, url: 'mailto:sales@shop.example' },
        // No ts: the time of receipt; elements kept.
        { event: 'pp.click', uuid: ids[3], anonymous_id: 'a3', elements: [{ tag: 'button', nth_child: 1 }] },
      ],
      { headers: { 'x-pp-tracker': 'pp-node/1.0.0' } },
    );
    t.equal(res.status, 202);
    t.same(res.body, { accepted: 4, rejected: [] });
    // Durable before the answer: readable right away from another connection.
    const rows = await storedEvents(server, project.id);
    const byEvent = Object.fromEntries(rows.map((r) => [r.event, r]));
    t.match(byEvent.purchase, {
      uuid: ids[0],
      ts: '2026-11-02T08:59:00.000Z',
      received_at: NOW,
      distinct_id: 'u1',
      anonymous_id: 'a1',
      user_id: 'u1',
      session_id: 's1',
      source: 'server',
      sdk_name: 'pp-node',
      sdk_version: '1.0.0',
      key_id: key.prefix,
      release: 'v1.2.3',
      url: 'https://shop.example/cart#top',
      path: '/cart',
      referrer: 'https://google.example/',
      revenue: 1250.5,
      invalid: false,
      invalid_reasons: null,
    });
    // The web fields (server/web) join the client's properties: google.example is no listed search engine.
    t.same(JSON.parse(byEvent.purchase.props), { revenue: 1250.5, plan: 'pro', $referring_domain: 'google.example', $channel: 'referral' });
    t.match(byEvent.refund, { uuid: ids[1], distinct_id: 'a1', user_id: null, revenue: -300, url: '/account/refunds', path: '/account/refunds', ts: NOW, invalid: false });
    t.match(byEvent.odd, { revenue: null, invalid: true, invalid_reasons: '["ts_in_future","revenue_not_numeric"]', ts: '2026-11-02T14:00:01.000Z', url: 'mailto:sales@shop.example', path: null });
    t.match(byEvent['pp.click'], { ts: NOW, url: null, path: null });
    t.same(JSON.parse(byEvent['pp.click'].elements), [{ tag: 'button', nth_child: 1 }]);
  });

  t.test('query strings: campaign parameters and the allow-list kept, the rest never stored', async (t) => {
    const shop = await createTenant(server);
    const shopKey = createIngestKey(server, shop.project);
    const owner = await accessTokenFor(server, shop.owner, shop.org);
    const settings = `/api/v1/projects/${shop.project.id}/behavior/settings`;
    const send = async (event: string, url: string, referrer: string) => {
      t.equal((await ingestEvents(server, shopKey, [{ event, anonymous_id: 'q', url, referrer }])).status, 202);
      const [row] = await readTable(server, 'SELECT url, path, referrer FROM events WHERE project_id = $1 AND event = $2', [shop.project.id, event]);
      return row;
    };
    // A GET form posted a password into the page URL; the referrer carries another site's token.
    const login = 'https://shop.example/login?user=ann&password=hunter2&utm_source=mail&utm_campaign=fall&page=2#top';
    const referrer = 'https://mail.example/open?session=tok3n&utm_medium=email';
    t.same(
      await send('default', login, referrer),
      {
        url: 'https://shop.example/login?utm_source=mail&utm_campaign=fall#top',
        path: '/login',
        referrer: 'https://mail.example/open?utm_medium=email',
      },
      'by default only campaign parameters are kept',
    );

    const allowed = await server.request('PATCH', settings, { token: owner, body: { url_query_allowlist: ['page', 'user'] } });
    t.equal(allowed.status, 200);
    t.same((await server.request('GET', settings, { token: owner })).body.url_query_allowlist, ['page', 'user'], 'the allow-list reads back');
    t.same(
      await send('allowed', login, referrer),
      {
        url: 'https://shop.example/login?user=ann&utm_source=mail&utm_campaign=fall&page=2#top',
        path: '/login',
        referrer: 'https://mail.example/open?utm_medium=email',
      },
      'allowed names are kept too, in the order sent',
    );

    t.equal((await server.request('PATCH', settings, { token: owner, body: { url_query_strip: false } })).status, 200);
    t.same(await send('whole', `${login}x`, referrer), { url: `${login}x`, path: '/login', referrer }, 'a project that keeps full query strings stores them whole');
    await server.request('PATCH', settings, { token: owner, body: { url_query_strip: true } });

    // The raw value rests nowhere: not in the events, the journal or any other file of the data folder.
    await ingestWriter(server.running.services).loaded();
    const rows = JSON.stringify(await readTable(server, `SELECT url, referrer, props FROM events WHERE project_id = $1 AND event <> 'whole'`, [shop.project.id]));
    t.notMatch(rows, /hunter2|tok3n/);
    const files = (await readdir(server.dataDir, { recursive: true, withFileTypes: true })).filter((f) => f.isFile() && f.parentPath.includes('journal'));
    t.ok(files.length > 0, 'the journal was read');
    const journal = (await Promise.all(files.map((f) => readFile(path.join(f.parentPath, f.name), 'latin1')))).join('');
    t.ok(journal.includes('utm_campaign=fall'), 'the journal holds the stored URL');
    t.equal(journal.split('hunter2').length - 1, 1, 'and the password only in the event of the project that keeps whole query strings');
  });

  t.test('hard defects are refused one by one and recorded without values', async (t) => {
    const before = await countRows(server, 'events', project.id);
    const res = await ingestEvents(server, key, [
      { event: 'fine', anonymous_id: 'a', props: { secret_value: 'hunter2' } },
      { anonymous_id: 'a', props: { secret_value: 'hunter2' } },
      { event: 'x'.repeat(300), anonymous_id: 'a' },
      { event: 'no-identity' },
      { event: 'bad-types', anonymous_id: 5.5, props: { secret_value: 'hunter2' } },
      { event: 'bad-uuid', uuid: 'urn:uuid:0b6c2f9e-3d0b-4a59-9f53-2f4f8a2b1c11', anonymous_id: 'a' },
      { event: 'unknown-field', anonymous_id: 'a', properties: {} },
      'just a string',
      { event: 'bad-ts', anonymous_id: 'a', ts: 'yesterday' },
      { event: 'deep', anonymous_id: 'a', props: JSON.parse('{"a":'.repeat(20) + '1' + '}'.repeat(20)) },
      { event: 'big', anonymous_id: 'a', props: { blob: 'x'.repeat(70 * 1024) } },
    ]);
    t.equal(res.status, 202);
    t.equal(res.body.accepted, 1);
    t.same(res.body.rejected, [
      { index: 1, code: 'event_required', message: 'event name is required' },
      { index: 2, code: 'invalid_field', message: 'event must NOT have more than 200 characters' },
      { index: 3, code: 'identity_required', message: 'anonymous_id or user_id is required' },
      { index: 4, code: 'invalid_field', message: 'anonymous_id must be string,integer,null' },
      { index: 5, code: 'invalid_field', message: 'uuid must be a UUID (8-4-4-4-12 hex digits)' },
      { index: 6, code: 'invalid_field', message: 'properties is not a known field' },
      { index: 7, code: 'invalid_event', message: 'an event must be a JSON object' },
      { index: 8, code: 'invalid_field', message: 'ts must match format "date-time"' },
      { index: 9, code: 'invalid_field', message: 'props is nested more than 16 levels deep' },
      { index: 10, code: 'too_large', message: 'props is larger than 65536 bytes' },
    ]);
    t.equal(await countRows(server, 'events', project.id), before + 1);
    const records = await readTable(
      server,
      `SELECT event_index, operation, key_id, source, sdk_name, event, code, message FROM ingest_rejections WHERE project_id = $1 AND operation = 'track' ORDER BY event_index`,
      [project.id],
    );
    t.equal(records.length, 10);
    t.match(records[0], { event_index: 1, operation: 'track', key_id: key.prefix, source: 'server', event: null, code: 'event_required' });
    t.equal(records[1]!.event, 'x'.repeat(200), 'event names are truncated');
    t.equal(records[3]!.event, 'bad-types');
    const all = JSON.stringify(await readTable(server, 'SELECT * EXCLUDE (received_at) FROM ingest_rejections'));
    t.notMatch(all, /hunter2/, 'no property value is recorded');
    t.notMatch(all, new RegExp(key.value), 'no credential is recorded');
  });

  t.test('lone UTF-16 surrogates are stored as U+FFFD, so JSON queries keep working', async (t) => {
    const uuid = randomUUID();
    const raw = `{"events":[{"event":"odd\\ud800name","uuid":"${uuid}","anonymous_id":"a\\udc00","props":{"k\\ud800":"v\\udfff","nested":{"x":["\\ud83d"]}}}]}`;
    const res = await server.request('POST', '/v1/track', { token: key.value, raw, headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 202);
    const [row] = await readTable(server, `SELECT event, anonymous_id, props->>'k\ufffd' AS k, props->'nested'->'x'->>0 AS x, json_keys(props) AS keys FROM events WHERE uuid = $1::UUID`, [uuid]);
    t.match(row, { event: 'odd\ufffdname', anonymous_id: 'a\ufffd', k: 'v\ufffd', x: '\ufffd' });
    const all = await readTable(server, `SELECT count(*) AS n FROM events WHERE project_id = $1 AND (props->>'plan') IS NOT NULL`, [project.id]);
    t.equal(all[0]!.n, 1, 'a query over every event of the project still runs');
  });

  t.test('a re-sent batch is stored once; duplicates inside a batch too', async (t) => {
    const events = Array.from({ length: 5 }, (_, i) => ({ event: 'retry', uuid: randomUUID(), anonymous_id: `r${i}` }));
    const first = await ingestEvents(server, key, events);
    const again = await ingestEvents(server, key, [...events, events[0]]);
    t.same(first.body, { accepted: 5, rejected: [] });
    t.same(again.body, { accepted: 6, rejected: [] }, 'a retry is answered as accepted');
    const rows = await readTable(server, `SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'retry'`, [project.id]);
    t.equal(rows[0]!.n, 5);
  });

  t.test('the same uuid in another project is another event', async (t) => {
    const other = await createTenant(server);
    const otherKey = createIngestKey(server, other.project);
    const uuid = randomUUID();
    await ingestEvents(server, key, [{ event: 'shared', uuid, anonymous_id: 'a' }]);
    await ingestEvents(server, otherKey, [{ event: 'shared', uuid, anonymous_id: 'a' }]);
    t.equal(await countRows(server, 'events', other.project.id), 1);
  });

  t.test('concurrent re-sends of overlapping batches store every uuid once, in grouped commits', async (t) => {
    const shared = Array.from({ length: 50 }, () => ({ event: 'race', uuid: randomUUID(), anonymous_id: 'r' }));
    const writer = (await import('../../server/ingest/groupWriter.js')).ingestWriter(server.running.services);
    const groupsBefore = writer.stats.groups;
    const requests = Array.from({ length: 30 }, (_, i) => ingestEvents(server, key, [...shared, { event: 'race', uuid: randomUUID(), anonymous_id: `own${i}` }]));
    const answers = await Promise.all(requests);
    t.ok(answers.every((a) => a.status === 202 && a.body.accepted === 51));
    const rows = await readTable(server, `SELECT count(*) AS n, count(DISTINCT uuid) AS d FROM events WHERE project_id = $1 AND event = 'race'`, [project.id]);
    t.same(rows[0], { n: 80, d: 80 }, '50 shared + 30 own, each once');
    t.ok(writer.stats.groups - groupsBefore < 30, `30 requests committed in ${writer.stats.groups - groupsBefore} groups`);
  });

  t.test('limits: 500 events per request and 1 MiB per body', async (t) => {
    const many = Array.from({ length: 501 }, (_, i) => ({ event: 'bulk', anonymous_id: `b${i}` }));
    const tooMany = await ingestEvents(server, key, many);
    t.equal(tooMany.status, 413);
    t.same(tooMany.body.error, { code: 'payload_too_large', message: 'a request carries at most 500 events', details: { limit_events: 500, events: 501 } });
    const exactly = await ingestEvents(server, key, many.slice(0, 500));
    t.equal(exactly.status, 202);
    t.equal(exactly.body.accepted, 500);
    const big = await ingestEvents(server, key, [{ event: 'big', anonymous_id: 'a', props: { s: 'x'.repeat(1024 * 1024) } }]);
    t.equal(big.status, 413);
    t.equal(big.body.error.code, 'payload_too_large');
    const malformed = await server.request('POST', '/v1/track', { token: key.value, raw: '{"events": [', headers: { 'content-type': 'application/json' } });
    t.equal(malformed.status, 400);
    t.equal(malformed.body.error.code, 'validation_failed');
  });

  t.test('a beacon: text/plain body with the browser token in `credential` and the tracker in `tracker`', async (t) => {
    const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example', '*.example.com'] });
    const uuid = randomUUID();
    const body = JSON.stringify({
      credential: browser.value,
      tracker: 'pp-browser/0.6.5',
      events: [{ event: 'pp.page_view', uuid, ts: NOW, anonymous_id: 'anon-b', session_id: 'sess-b', url: 'https://www.example.com/pricing', props: { navigation: 'load' } }],
    });
    const res = await server.request('POST', '/v1/track', { raw: body, headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://www.example.com' } });
    t.equal(res.status, 202);
    t.equal(res.headers.get('access-control-allow-origin'), 'https://www.example.com');
    const [row] = await readTable(server, `SELECT source, sdk_name, sdk_version, key_id, path FROM events WHERE uuid = $1::UUID`, [uuid]);
    t.same(row, { source: 'browser', sdk_name: 'pp-browser', sdk_version: '0.6.5', key_id: browser.prefix, path: '/pricing' });
  });

  t.test('one event object, not wrapped in a batch', async (t) => {
    const uuid = randomUUID();
    const res = await server.request('POST', '/v1/track', { token: key.value, body: { event: 'single', uuid, user_id: 'solo' } });
    t.same(res.body, { accepted: 1, rejected: [] });
    const bad = await server.request('POST', '/v1/track', { token: key.value, body: { user_id: 'solo' } });
    t.same(bad.body, { accepted: 0, rejected: [{ index: 0, code: 'event_required', message: 'event name is required' }] });
    t.equal((await readTable(server, 'SELECT count(*) AS n FROM events WHERE uuid = $1::UUID', [uuid]))[0]!.n, 1);
  });

  t.test('CORS preflight needs no credential', async (t) => {
    for (const path of ['/v1/track', '/v1/identify', '/v1/alias', '/v1/replay', '/v1/capture', '/v1/config/abcdefgh']) {
      const res = await server.request('OPTIONS', path, {
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-pp-tracker' },
      });
      t.equal(res.status, 204, path);
      t.equal(res.headers.get('access-control-allow-origin'), 'https://shop.example');
      t.match(res.headers.get('access-control-allow-headers'), /Content-Type/);
      t.match(res.headers.get('access-control-allow-headers'), /X-PP-Tracker/);
      t.match(res.headers.get('access-control-allow-methods'), /POST/);
      t.equal(res.headers.get('access-control-allow-credentials'), null, 'no cookies are involved');
    }
  });

  t.test('a legacy key in ?key= works and is answered with Deprecation: true', async (t) => {
    const legacy = createLegacyKey(server, project);
    const res = await server.request('POST', `/v1/track?key=${legacy.value}`, { body: { events: [{ event: 'legacy', anonymous_id: 'l' }] } });
    t.equal(res.status, 202);
    t.equal(res.headers.get('deprecation'), 'true');
    const [row] = await readTable(server, `SELECT source, key_id FROM events WHERE project_id = $1 AND event = 'legacy'`, [project.id]);
    t.same(row, { source: 'unknown', key_id: legacy.prefix });
    const bearer = await ingestEvents(server, legacy, [{ event: 'legacy', anonymous_id: 'l' }]);
    t.equal(bearer.headers.get('deprecation'), null);
  });

  t.test('committed events reach event bus subscribers in the events-list shape', async (t) => {
    const received: CommittedEvent[] = [];
    await ingestWriter(server.running.services).loaded();
    const stop = eventBus(server.running.services).subscribe((events) => received.push(...events), { projectId: project.id });
    t.teardown(stop);
    const uuid = randomUUID();
    await ingestEvents(server, key, [{ event: 'live', uuid, anonymous_id: 'a9', url: 'https://x.example/p', props: { revenue: '7' } }]);
    // Published once loaded (after the answer), delivered a turn later.
    await ingestWriter(server.running.services).loaded();
    await new Promise((resolve) => setImmediate(resolve));
    t.same(received, [
      {
        project_id: project.id,
        uuid,
        event: 'live',
        ts: NOW,
        received_at: NOW,
        distinct_id: 'a9',
        anonymous_id: 'a9',
        user_id: null,
        session_id: null,
        source: 'server',
        sdk_name: null,
        sdk_version: null,
        release: null,
        url: 'https://x.example/p',
        path: '/p',
        referrer: null,
        props: { revenue: '7', $channel: 'direct' },
        revenue: 7,
        invalid: false,
        invalid_reasons: [],
      },
    ]);
  });
});

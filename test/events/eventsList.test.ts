// GET /projects/{id}/events (regular view): 401 → 422 → 404 → the list, its item fields, every
// filter, the order (receipt time, then uuid), and the page size limits. Every role may read, so
// there is no 403 case.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { createProject } from '../../server/accounts/projects.js';
import { eventsTenant, ingestOk, qs, uuidOf } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');
const hoursBefore = (h: number) => new Date(T0.getTime() - h * 3_600_000).toISOString();

t.test('events list', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const tenant = await eventsTenant(server);
  const { viewer, key, eventsPath } = tenant;
  const other = await createTenant(server);
  const browser = createIngestKey(server, tenant.project, { type: 'browser', domains: ['shop.example'] });
  const [u1, u2, u3, u4, u5] = [1, 2, 3, 4, 5].map(uuidOf) as [string, string, string, string, string];

  server.clock.set(hoursBefore(3));
  await ingestOk(
    server,
    key,
    [
      { uuid: u1, event: 'signup', user_id: 'alice', anonymous_id: 'anon-a', release: 'v1', ts: hoursBefore(3.5) },
      { uuid: u2, event: 'pp.page_view', anonymous_id: 'anon-a', session_id: 's1', url: 'https://shop.example/a?utm_source=mail', props: { plan: 'pro', n: 2 } },
    ],
    { 'x-pp-tracker': 'pp-node/1.2.0' },
  );
  server.clock.set(hoursBefore(2));
  await ingestOk(server, key, [{ uuid: u3, event: 'purchase', user_id: 'bob', props: { revenue: 'lots' } }]);
  server.clock.set(hoursBefore(1));
  await ingestOk(server, key, [{ uuid: u4, event: 'pp.click', anonymous_id: 'anon-b', release: 'v2', ts: new Date(T0.getTime() + 3 * 3_600_000).toISOString() }]);
  await ingestOk(server, browser, [{ uuid: u5, event: 'signup', anonymous_id: 'anon-c' }], { origin: 'https://shop.example', 'x-pp-tracker': 'pp-browser/0.6.5' });
  const linked = await server.request('POST', '/v1/identify', { token: key.value, body: { anonymous_id: 'anon-a', user_id: 'alice' } });
  t.equal(linked.status, 202);
  server.clock.set(T0);

  t.test('401 without a token, and with an ingestion key', async (t) => {
    t.equal((await server.request('GET', eventsPath)).status, 401);
    const res = await server.request('GET', eventsPath, { token: key.value });
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
  });

  t.test('422 with the exact message', async (t) => {
    const cases: Array<[Record<string, any>, string, string]> = [
      [{ source: 'web' }, 'source', 'invalid query parameter source: must be one of "browser", "server", "import", "system", "unknown"'],
      [{ limit: 0 }, 'limit', 'invalid query parameter limit: must be >= 1'],
      [{ limit: 501 }, 'limit', 'invalid query parameter limit: must be <= 500'],
      [{ limit: 'ten' }, 'limit', 'invalid query parameter limit: must be integer'],
      [{ from: 'yesterday' }, 'from', 'invalid query parameter from: must match format "date-time"'],
      [{ to: '2026-11-02' }, 'to', 'invalid query parameter to: must match format "date-time"'],
      [{ invalid_only: 'maybe' }, 'invalid_only', 'invalid query parameter invalid_only: must be boolean'],
      [{ view: 'list' }, 'view', 'invalid query parameter view: must be one of "doctor"'],
      [{ event: '' }, 'event[0]', 'invalid query parameter event[0]: must NOT have fewer than 1 characters'],
      [{ user_id: 'x'.repeat(201) }, 'user_id', 'invalid query parameter user_id: must NOT have more than 200 characters'],
      [{ anonymous_id: 'anon-a', anon_id: 'anon-b' }, 'anon_id', 'anon_id is an alias of anonymous_id and must not differ from it (got "anon-b" and "anon-a")'],
      [{ from: hoursBefore(1), to: hoursBefore(2) }, 'to', `to (${hoursBefore(2)}) must be later than from (${hoursBefore(1)})`],
      [{ from: hoursBefore(1), to: hoursBefore(1) }, 'to', `to (${hoursBefore(1)}) must be later than from (${hoursBefore(1)})`],
      [{ cursor: 'not-a-cursor' }, 'cursor', 'cursor does not belong to this query; start again without it'],
    ];
    for (const [params, field, message] of cases) {
      const res = await server.request('GET', eventsPath + qs(params), { token: viewer });
      t.equal(res.status, 422, message);
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.message, message);
      t.equal(res.body.error.details.field, field);
    }
  });

  t.test('404 for a project of another organization', async (t) => {
    const res = await server.request('GET', `/api/v1/projects/${other.project.id}/events`, { token: viewer });
    t.equal(res.status, 404);
    t.equal(res.body.error.code, 'not_found');
    t.equal((await server.request('GET', '/api/v1/projects/999999/events', { token: viewer })).status, 404);
  });

  t.test('newest first by receipt time, ties by uuid descending; the item fields', async (t) => {
    const res = await server.request('GET', eventsPath, { token: viewer });
    t.equal(res.status, 200);
    t.equal(res.body.next_cursor, null);
    // u4 and u5 arrived at the same instant: the larger uuid comes first.
    t.same(
      res.body.items.map((e: any) => e.uuid),
      [u5, u4, u3, u2, u1],
    );
    const byUuid = Object.fromEntries(res.body.items.map((e: any) => [e.uuid, e]));
    t.strictSame(byUuid[u2], {
      uuid: u2,
      event: 'pp.page_view',
      ts: hoursBefore(3),
      received_at: hoursBefore(3),
      actor_id: 'alice', // anon-a was identified as alice after the event was stored
      distinct_id: 'anon-a',
      anonymous_id: 'anon-a',
      user_id: null,
      session_id: 's1',
      source: 'server',
      sdk_name: 'pp-node',
      sdk_version: '1.2.0',
      release: null,
      url: 'https://shop.example/a?utm_source=mail',
      path: '/a',
      referrer: null,
      props: { plan: 'pro', n: 2, $utm_source: 'mail', $channel: 'email' }, // with the web fields derived at ingest
      revenue: null,
      invalid: false,
      invalid_reasons: [],
    });
    t.match(byUuid[u1], { ts: hoursBefore(3.5), received_at: hoursBefore(3), actor_id: 'alice', distinct_id: 'alice', release: 'v1', props: null });
    t.match(byUuid[u3], { invalid: true, invalid_reasons: ['revenue_not_numeric'], revenue: null, props: { revenue: 'lots' }, sdk_name: null });
    t.match(byUuid[u4], { invalid: true, invalid_reasons: ['ts_in_future'], actor_id: 'anon-b' });
    t.match(byUuid[u5], { source: 'browser', sdk_name: 'pp-browser', sdk_version: '0.6.5', actor_id: 'anon-c' });
  });

  t.test('filters', async (t) => {
    const cases: Array<[Record<string, any>, string[]]> = [
      [{ event: 'signup' }, [u5, u1]],
      [{ event: ['signup', 'purchase'] }, [u5, u3, u1]],
      [{ event: 'nothing' }, []],
      [{ user_id: 'alice' }, [u1]],
      [{ anonymous_id: 'anon-a' }, [u2, u1]],
      [{ anon_id: 'anon-a' }, [u2, u1]],
      [{ anonymous_id: 'anon-a', anon_id: 'anon-a' }, [u2, u1]],
      [{ actor_id: 'alice' }, [u2, u1]],
      [{ actor_id: 'anon-a' }, []], // linked to alice: no event resolves to anon-a any more
      [{ actor_id: 'bob' }, [u3]],
      [{ sdk_name: 'pp-node' }, [u2, u1]],
      [{ sdk_name: 'pp-browser' }, [u5]],
      [{ release: 'v1' }, [u1]],
      [{ invalid_only: true }, [u4, u3]],
      [{ invalid_only: false }, [u5, u4, u3, u2, u1]],
      [{ source: 'browser' }, [u5]],
      [{ source: 'server' }, [u4, u3, u2, u1]],
      [{ source: 'import' }, []],
      [{ from: hoursBefore(2) }, [u5, u4, u3]],
      [{ to: hoursBefore(2) }, [u2, u1]],
      [{ from: hoursBefore(2), to: hoursBefore(1) }, [u3]], // half-open: the events at to are out
      [{ from: '2026-11-02T11:00:00+02:00', to: '2026-11-02T12:00:00+02:00' }, [u2, u1]], // offsets honoured
      [{ event: 'signup', source: 'server', actor_id: 'alice' }, [u1]],
    ];
    for (const [params, expected] of cases) {
      const res = await server.request('GET', eventsPath + qs(params), { token: viewer });
      t.equal(res.status, 200, JSON.stringify(params));
      t.same(
        res.body.items.map((e: any) => e.uuid),
        expected,
        JSON.stringify(params),
      );
    }
  });

  t.test('limit: default 50, at most 500', async (t) => {
    const res = await server.request('GET', eventsPath + qs({ limit: 2 }), { token: viewer });
    t.same(
      res.body.items.map((e: any) => e.uuid),
      [u5, u4],
    );
    t.type(res.body.next_cursor, 'string');
    const many = Array.from({ length: 120 }, (_, i) => ({ uuid: uuidOf(1000 + i), event: 'bulk', anonymous_id: 'bulk' }));
    await ingestOk(server, key, many);
    const page = await server.request('GET', eventsPath + qs({ event: 'bulk' }), { token: viewer });
    t.equal(page.body.items.length, 50);
    t.type(page.body.next_cursor, 'string');
    const max = await server.request('GET', eventsPath + qs({ event: 'bulk', limit: 500 }), { token: viewer });
    t.equal(max.body.items.length, 120);
    t.equal(max.body.next_cursor, null);
  });

  t.test('another project of the same organization is a separate list', async (t) => {
    const { project } = tenant;
    const second = createProject(server.running.services.meta, { orgId: tenant.org.id, name: 'Second' }, T0);
    const owner = await accessTokenFor(server, tenant.owner, tenant.org);
    const res = await server.request('GET', `/api/v1/projects/${second.id}/events`, { token: owner });
    t.equal(res.status, 200);
    t.same(res.body.items, []);
    t.not(second.id, project.id);
  });
});

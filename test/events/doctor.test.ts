// GET /projects/{id}/events?view=doctor: 401 → 422 → 404 → accepted-event metadata merged with the
// refused attempts ingestion recorded, newest first, filters, and cursor pages across both kinds.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { allPages, eventsTenant, ingestOk, qs, uuidOf } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');
const minutesBefore = (m: number) => new Date(T0.getTime() - m * 60_000).toISOString();
const FROM = minutesBefore(60);
const TO = T0.toISOString();

t.test('doctor view', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const tenant = await eventsTenant(server);
  const { viewer, key, eventsPath } = tenant;
  const other = await createTenant(server);
  const browser = createIngestKey(server, tenant.project, { type: 'browser', domains: ['shop.example'] });
  const doctor = (params: Record<string, any> = {}) => eventsPath + qs({ view: 'doctor', from: FROM, to: TO, ...params });

  // 40 minutes ago, one request: a valid event, a refused one (no identity) and one with a warning.
  server.clock.set(minutesBefore(40));
  const mixed = await ingestEvents(
    server,
    key,
    [
      { uuid: uuidOf(1), event: 'signup', user_id: 'alice', props: { secret: 'never shown' } },
      { event: 'signup', props: { secret: 'never shown' } },
      { uuid: uuidOf(2), event: 'purchase', user_id: 'alice', props: { revenue: 'lots' } },
    ],
    { headers: { 'x-pp-tracker': 'pp-node/1.2.0' } },
  );
  t.same(mixed.body, { accepted: 2, rejected: [{ index: 1, code: 'identity_required', message: 'anonymous_id or user_id is required' }] });
  const mixedRequestId = mixed.headers.get('x-request-id');
  // 30 minutes ago: a browser token used from a foreign origin (refused as a whole), then a valid browser event.
  server.clock.set(minutesBefore(30));
  const foreign = await ingestEvents(server, browser, [{ event: 'pp.page_view', anonymous_id: 'a' }], { headers: { origin: 'https://evil.example', 'x-pp-tracker': 'pp-browser/0.6.5' } });
  t.equal(foreign.status, 403);
  await ingestOk(server, browser, [{ uuid: uuidOf(3), event: 'pp.page_view', anonymous_id: 'a' }], { origin: 'https://shop.example', 'x-pp-tracker': 'pp-browser/0.6.5' });
  // Two hours ago: outside the range asked for below.
  server.clock.set(minutesBefore(120));
  await ingestOk(server, key, [{ uuid: uuidOf(4), event: 'old', user_id: 'alice' }]);
  server.clock.set(T0);

  t.test('401, then 422 with the exact message, then 404', async (t) => {
    t.equal((await server.request('GET', doctor())).status, 401);
    const cases: Array<[Record<string, any>, string, string]> = [
      [{ view: 'doctor' }, 'from', 'from is required with view=doctor'],
      [{ view: 'doctor', from: FROM }, 'to', 'to is required with view=doctor'],
      [{ view: 'doctor', to: TO }, 'from', 'from is required with view=doctor'],
      [
        { view: 'doctor', from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00.001Z' },
        'to',
        'view=doctor covers at most 31 days: to must be at most 2026-11-01T00:00:00.000Z, got 2026-11-01T00:00:00.001Z',
      ],
      [{ view: 'doctor', from: TO, to: FROM }, 'to', `to (${FROM}) must be later than from (${TO})`],
      [{ view: 'doctor', from: FROM, to: TO, event: ['a', 'b'] }, 'event', 'view=doctor takes at most one event value, got 2'],
      [{ view: 'doctor', from: FROM, to: TO, user_id: 'alice' }, 'user_id', 'user_id is not a filter of view=doctor'],
      [{ view: 'doctor', from: FROM, to: TO, anonymous_id: 'a' }, 'anonymous_id', 'anonymous_id is not a filter of view=doctor'],
      [{ view: 'doctor', from: FROM, to: TO, anon_id: 'a' }, 'anon_id', 'anon_id is not a filter of view=doctor'],
      [{ view: 'doctor', from: FROM, to: TO, actor_id: 'alice' }, 'actor_id', 'actor_id is not a filter of view=doctor'],
      [{ view: 'doctor', from: FROM, to: TO, release: 'v1' }, 'release', 'release is not a filter of view=doctor'],
      [{ view: 'doctor', from: FROM, to: TO, source: 'web' }, 'source', 'invalid query parameter source: must be one of "browser", "server", "import", "system", "unknown"'],
    ];
    for (const [params, field, message] of cases) {
      const res = await server.request('GET', eventsPath + qs(params), { token: viewer });
      t.equal(res.status, 422, message);
      t.equal(res.body.error.message, message);
      t.equal(res.body.error.details.field, field);
    }
    t.equal((await server.request('GET', `/api/v1/projects/${other.project.id}/events` + qs({ view: 'doctor', from: FROM, to: TO }), { token: viewer })).status, 404);
  });

  t.test('exactly 31 days is accepted', async (t) => {
    const res = await server.request('GET', eventsPath + qs({ view: 'doctor', from: '2026-10-02T12:00:00Z', to: '2026-11-02T12:00:00Z' }), { token: viewer });
    t.equal(res.status, 200);
    t.equal(res.body.items.length, 6);
  });

  t.test('records: accepted metadata and refused attempts, newest first, no property values', async (t) => {
    const res = await server.request('GET', doctor(), { token: viewer });
    t.equal(res.status, 200);
    t.equal(res.body.next_cursor, null);
    t.notMatch(res.text, /never shown/);
    const common = { metadata_version: 2 };
    t.strictSame(res.body.items, [
      // 30 minutes ago: the refused request and the accepted browser event; refused first at equal times.
      {
        ...common,
        kind: 'rejected',
        outcome: 'rejected',
        received_at: minutesBefore(30),
        ts: null,
        event: null,
        uuid: null,
        operation: 'track',
        source: 'browser',
        sdk_name: 'pp-browser',
        sdk_version: '0.6.5',
        key_id: browser.prefix,
        warnings: [],
        code: 'credential_origin_forbidden',
        message: 'this key may not be used from this origin',
        request_id: foreign.headers.get('x-request-id'),
        event_index: null,
      },
      {
        ...common,
        kind: 'accepted',
        outcome: 'valid',
        received_at: minutesBefore(30),
        ts: minutesBefore(30),
        event: 'pp.page_view',
        uuid: uuidOf(3),
        operation: null,
        source: 'browser',
        sdk_name: 'pp-browser',
        sdk_version: '0.6.5',
        key_id: browser.prefix,
        warnings: [],
        code: null,
        message: null,
        request_id: null,
        event_index: null,
      },
      // 40 minutes ago, one request: the refused event first, then the accepted ones by uuid descending.
      {
        ...common,
        kind: 'rejected',
        outcome: 'rejected',
        received_at: minutesBefore(40),
        ts: null,
        event: 'signup',
        uuid: null,
        operation: 'track',
        source: 'server',
        sdk_name: 'pp-node',
        sdk_version: '1.2.0',
        key_id: key.prefix,
        warnings: [],
        code: 'identity_required',
        message: 'anonymous_id or user_id is required',
        request_id: mixedRequestId,
        event_index: 1,
      },
      {
        ...common,
        kind: 'accepted',
        outcome: 'invalid',
        received_at: minutesBefore(40),
        ts: minutesBefore(40),
        event: 'purchase',
        uuid: uuidOf(2),
        operation: null,
        source: 'server',
        sdk_name: 'pp-node',
        sdk_version: '1.2.0',
        key_id: key.prefix,
        warnings: ['revenue_not_numeric'],
        code: null,
        message: null,
        request_id: null,
        event_index: null,
      },
      {
        ...common,
        kind: 'accepted',
        outcome: 'valid',
        received_at: minutesBefore(40),
        ts: minutesBefore(40),
        event: 'signup',
        uuid: uuidOf(1),
        operation: null,
        source: 'server',
        sdk_name: 'pp-node',
        sdk_version: '1.2.0',
        key_id: key.prefix,
        warnings: [],
        code: null,
        message: null,
        request_id: null,
        event_index: null,
      },
    ]);
  });

  t.test('filters apply to both kinds', async (t) => {
    const cases: Array<[Record<string, any>, Array<[string, string | null]>]> = [
      [
        { event: 'signup' },
        [
          ['rejected', 'signup'],
          ['accepted', 'signup'],
        ],
      ],
      [
        { sdk_name: 'pp-node' },
        [
          ['rejected', 'signup'],
          ['accepted', 'purchase'],
          ['accepted', 'signup'],
        ],
      ],
      [
        { source: 'browser' },
        [
          ['rejected', null],
          ['accepted', 'pp.page_view'],
        ],
      ],
      [
        { invalid_only: true },
        [
          ['rejected', null],
          ['rejected', 'signup'],
          ['accepted', 'purchase'],
        ],
      ],
      [
        { from: minutesBefore(35) },
        [
          ['rejected', null],
          ['accepted', 'pp.page_view'],
        ],
      ],
      [
        { to: minutesBefore(30) },
        [
          ['rejected', 'signup'],
          ['accepted', 'purchase'],
          ['accepted', 'signup'],
        ],
      ], // half-open
      [{ from: minutesBefore(180), to: minutesBefore(100) }, [['accepted', 'old']]],
    ];
    for (const [params, expected] of cases) {
      const res = await server.request('GET', doctor(params), { token: viewer });
      t.equal(res.status, 200, JSON.stringify(params));
      t.same(
        res.body.items.map((r: any) => [r.kind, r.event]),
        expected,
        JSON.stringify(params),
      );
    }
  });

  t.test('pages of one walk both kinds in order, each record once', async (t) => {
    const whole = (await server.request('GET', doctor(), { token: viewer })).body.items;
    for (const limit of [1, 2, 3]) {
      const { items, sizes } = await allPages(server, viewer, eventsPath, { view: 'doctor', from: FROM, to: TO, limit });
      t.same(items, whole, `limit ${limit}`);
      t.equal(sizes.length, Math.ceil(whole.length / limit));
    }
  });

  t.test('doctor cursors are bound to every filter', async (t) => {
    const first = await server.request('GET', doctor({ limit: 2 }), { token: viewer });
    const cursor = first.body.next_cursor;
    t.type(cursor, 'string');
    t.equal((await server.request('GET', doctor({ limit: 2, cursor }), { token: viewer })).status, 200);
    for (const change of [{ from: minutesBefore(59) }, { to: minutesBefore(1) }, { event: 'signup' }, { sdk_name: 'pp-node' }, { source: 'server' }, { invalid_only: true }]) {
      const res = await server.request('GET', doctor({ limit: 2, cursor, ...change }), { token: viewer });
      t.equal(res.status, 422, JSON.stringify(change));
      t.equal(res.body.error.details.field, 'cursor');
    }
    const regular = await server.request('GET', eventsPath + qs({ cursor }), { token: viewer });
    t.equal(regular.status, 422, 'a doctor cursor is no cursor of the regular list');
  });
});

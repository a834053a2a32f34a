// GET /projects/{id}/catalog/events and /catalog/props: 401 → 422 → 404 → event names with counts,
// first/last event time and first/last receipt, and property keys with their inferred types.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { eventsTenant, ingestOk, qs } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');
const minutesBefore = (m: number) => new Date(T0.getTime() - m * 60_000).toISOString();

t.test('catalogs', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const tenant = await eventsTenant(server);
  const { viewer, key, project } = tenant;
  const other = await createTenant(server);
  const eventsCatalog = `/api/v1/projects/${project.id}/catalog/events`;
  const propsCatalog = `/api/v1/projects/${project.id}/catalog/props`;

  await t.test('empty project', async (t) => {
    t.same((await server.request('GET', eventsCatalog, { token: viewer })).body, { items: [], truncated: false });
    t.same((await server.request('GET', propsCatalog, { token: viewer })).body, { event: null, sampled_events: 0, items: [], truncated: false });
  });

  server.clock.set(minutesBefore(12));
  await ingestOk(server, key, [
    {
      event: 'signup',
      anonymous_id: 'a',
      ts: minutesBefore(30), // happened well before it was sent
      props: { plan: 'pro', n: 1, ok: true, at: '2026-11-01T10:00:00Z', nested: { a: 1 }, list: [1, 2], mixed: 1, dateish: '2026-11-01', nothing: null, sometimes_date: '2026-11-01' },
    },
  ]);
  server.clock.set(minutesBefore(11));
  await ingestOk(server, key, [
    { event: 'signup', anonymous_id: 'b', props: { plan: 'free', n: 2.5, ok: false, at: '2026-11-02T10:00:00.250+02:00', mixed: 'one', sometimes_date: 'soon', nothing: null } },
    { event: 'purchase', anonymous_id: 'b', ts: minutesBefore(20), props: { revenue: 10, currency: 'RUB', 'dot.key "q"': -1 } },
  ]);
  server.clock.set(minutesBefore(10));
  await ingestOk(server, key, [
    { event: 'signup', anonymous_id: 'c' },
    { event: 'pp.page_view', anonymous_id: 'c' },
  ]);
  await ingestOk(server, createIngestKey(server, other.project), [{ event: 'elsewhere', anonymous_id: 'x', props: { foreign: 1 } }]);
  server.clock.set(T0);

  t.test('event catalog: 401, 404, then names with counts, first/last event time and first/last receipt', async (t) => {
    t.equal((await server.request('GET', eventsCatalog)).status, 401);
    t.equal((await server.request('GET', eventsCatalog, { token: key.value })).status, 401);
    t.equal((await server.request('GET', `/api/v1/projects/${other.project.id}/catalog/events`, { token: viewer })).status, 404);
    const res = await server.request('GET', eventsCatalog, { token: viewer });
    t.equal(res.status, 200);
    t.strictSame(res.body, {
      items: [
        // Sent without ts: its event time is its time of receipt.
        { event: 'pp.page_view', count: 1, first_event_time: minutesBefore(10), last_event_time: minutesBefore(10), first_seen: minutesBefore(10), last_seen: minutesBefore(10) },
        // Happened 20 minutes ago, received 11 minutes ago.
        { event: 'purchase', count: 1, first_event_time: minutesBefore(20), last_event_time: minutesBefore(20), first_seen: minutesBefore(11), last_seen: minutesBefore(11) },
        // The first happened 30 minutes ago and arrived 12 minutes ago; the last (no ts) arrived 10 minutes ago.
        { event: 'signup', count: 3, first_event_time: minutesBefore(30), last_event_time: minutesBefore(10), first_seen: minutesBefore(12), last_seen: minutesBefore(10) },
      ],
      truncated: false,
    });
  });

  t.test('property catalog: 401 → 422 → 404, then keys with inferred types', async (t) => {
    t.equal((await server.request('GET', propsCatalog)).status, 401);
    const cases: Array<[Record<string, string>, string]> = [
      [{ event: '' }, 'invalid query parameter event: must NOT have fewer than 1 characters'],
      [{ event: 'e'.repeat(201) }, 'invalid query parameter event: must NOT have more than 200 characters'],
    ];
    for (const [params, message] of cases) {
      const res = await server.request('GET', propsCatalog + qs(params), { token: viewer });
      t.equal(res.status, 422);
      t.equal(res.body.error.message, message);
    }
    t.equal((await server.request('GET', `/api/v1/projects/${other.project.id}/catalog/props`, { token: viewer })).status, 404);

    const all = await server.request('GET', propsCatalog, { token: viewer });
    t.equal(all.status, 200);
    t.strictSame(all.body, {
      event: null,
      sampled_events: 3, // the events that carry properties
      items: [
        { key: 'at', type: 'datetime', seen: 2 },
        { key: 'currency', type: 'string', seen: 1 },
        { key: 'dateish', type: 'datetime', seen: 1 },
        { key: 'dot.key "q"', type: 'number', seen: 1 },
        { key: 'list', type: 'array', seen: 1 },
        { key: 'mixed', type: 'mixed', seen: 2 }, // a number once, a string once
        { key: 'n', type: 'number', seen: 2 },
        { key: 'nested', type: 'object', seen: 1 },
        { key: 'ok', type: 'boolean', seen: 2 },
        { key: 'plan', type: 'string', seen: 2 },
        { key: 'revenue', type: 'number', seen: 1 },
        { key: 'sometimes_date', type: 'string', seen: 2 }, // only one of its values looks like a date
        // "nothing" was only ever null: no type to offer.
      ],
      truncated: false,
    });

    const purchase = await server.request('GET', propsCatalog + qs({ event: 'purchase' }), { token: viewer });
    t.strictSame(purchase.body, {
      event: 'purchase',
      sampled_events: 1,
      items: [
        { key: 'currency', type: 'string', seen: 1 },
        { key: 'dot.key "q"', type: 'number', seen: 1 },
        { key: 'revenue', type: 'number', seen: 1 },
      ],
      truncated: false,
    });
    const none = await server.request('GET', propsCatalog + qs({ event: 'pp.page_view' }), { token: viewer });
    t.strictSame(none.body, { event: 'pp.page_view', sampled_events: 0, items: [], truncated: false });
  });
});

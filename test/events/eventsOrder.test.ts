// The `order` of GET /projects/{id}/events: received (the default, unchanged) or event_time; 422 for
// another value and for event_time with the doctor view; cursors bound to the order; and a randomized
// walk of every page in each order compared with a plain sort of the events sent.

import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { eventsTenant, ingestOk, qs, uuidOf } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');
// Offsets in seconds from T0: the access tokens live 15 minutes of the test clock.
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000).toISOString();
const CURSOR_REFUSED = 'cursor does not belong to this query; start again without it';

interface Listed {
  uuid: string;
  ts: string;
  received_at: string;
}

/** The reference: newest first by `time`, then uuid descending (uuids are lower-case hex). */
function referenceOrder(events: Listed[], time: 'ts' | 'received_at'): string[] {
  const desc = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  return [...events].sort((a, b) => desc(a[time], b[time]) || desc(a.uuid, b.uuid)).map((e) => e.uuid);
}

t.test('events list order', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const { viewer, key, eventsPath } = await eventsTenant(server);
  const list = (params: Record<string, any>) => server.request('GET', eventsPath + qs(params), { token: viewer });

  // Received in the order u1, u2, u3 (u3 with u4 at one instant); happened in the order u3, u1, u4, u2.
  const [u1, u2, u3, u4] = [1, 2, 3, 4].map(uuidOf) as [string, string, string, string];
  server.clock.set(at(-30));
  await ingestOk(server, key, [{ uuid: u1, event: 'o', anonymous_id: 'a', ts: at(-200) }]);
  server.clock.set(at(-20));
  await ingestOk(server, key, [{ uuid: u2, event: 'o', anonymous_id: 'a', ts: at(-25) }]);
  server.clock.set(at(-10));
  await ingestOk(server, key, [
    { uuid: u3, event: 'o', anonymous_id: 'a', ts: at(-300) },
    { uuid: u4, event: 'o', anonymous_id: 'a', ts: at(-100) },
  ]);
  server.clock.set(T0);

  t.test('422: another value, and event_time with the doctor view', async (t) => {
    const cases: Array<[Record<string, any>, string, string]> = [
      [{ order: 'ts' }, 'order', 'invalid query parameter order: must be one of "received", "event_time"'],
      [{ order: '' }, 'order', 'invalid query parameter order: must be one of "received", "event_time"'],
      [{ view: 'doctor', from: at(-60), to: at(0), order: 'event_time' }, 'order', 'view=doctor is ordered by time of receipt only: order=event_time is not accepted'],
    ];
    for (const [params, field, message] of cases) {
      const res = await list(params);
      t.equal(res.status, 422, message);
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.message, message);
      t.equal(res.body.error.details.field, field);
    }
    t.equal((await list({ view: 'doctor', from: at(-60), to: at(0), order: 'received' })).status, 200, 'the doctor view is ordered by receipt');
  });

  t.test('received (the default) and event_time', async (t) => {
    t.same(
      (await list({ event: 'o' })).body.items.map((e: Listed) => e.uuid),
      [u4, u3, u2, u1],
      'by receipt, u4 above u3 at one instant',
    );
    t.same(
      (await list({ event: 'o', order: 'received' })).body.items.map((e: Listed) => e.uuid),
      [u4, u3, u2, u1],
      'received is the default',
    );
    t.same(
      (await list({ event: 'o', order: 'event_time' })).body.items.map((e: Listed) => e.uuid),
      [u2, u4, u1, u3],
      'by event time',
    );
    // from/to bound the time of receipt in either order: u3 and u4 arrived at -10 s.
    t.same(
      (await list({ event: 'o', order: 'event_time', from: at(-15) })).body.items.map((e: Listed) => e.uuid),
      [u4, u3],
    );
  });

  t.test('a cursor is bound to its order', async (t) => {
    const received = (await list({ event: 'o', limit: 1 })).body.next_cursor as string;
    const byTime = (await list({ event: 'o', order: 'event_time', limit: 1 })).body.next_cursor as string;
    for (const [params, cursor] of [
      [{ event: 'o', order: 'event_time' }, received],
      [{ event: 'o' }, byTime],
      [{ event: 'o', order: 'received' }, byTime],
    ] as const) {
      const res = await list({ ...params, cursor });
      t.equal(res.status, 422, JSON.stringify(params));
      t.equal(res.body.error.message, CURSOR_REFUSED);
      t.equal(res.body.error.details.field, 'cursor');
    }
    t.same(
      (await list({ event: 'o', order: 'received', cursor: received })).body.items.map((e: Listed) => e.uuid),
      [u3, u2, u1],
      'order=received is the default order',
    );
    t.same(
      (await list({ event: 'o', order: 'event_time', cursor: byTime })).body.items.map((e: Listed) => e.uuid),
      [u4, u1, u3],
    );
  });

  t.test('randomized: every page in each order lists every event once, as a plain sort does', async (t) => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Few receipt instants and few event times, so both orders have ties that uuids break.
        fc.array(fc.record({ received: fc.integer({ min: 0, max: 3 }), happened: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        async (shape, limits) => {
          run += 1;
          const name = `walk-${run}`;
          const sent = shape.map((s) => ({ uuid: randomUUID(), received: s.received, ts: at(-600 + s.happened * 7) }));
          for (let slot = 0; slot <= 3; slot++) {
            const batch = sent.filter((e) => e.received === slot);
            if (batch.length === 0) continue;
            server.clock.set(at(slot));
            await ingestOk(
              server,
              key,
              batch.map((e) => ({ uuid: e.uuid, event: name, anonymous_id: 'w', ts: e.ts })),
            );
          }
          server.clock.set(T0);
          const events: Listed[] = sent.map((e) => ({ uuid: e.uuid, ts: e.ts, received_at: at(e.received) }));
          for (const [order, time] of [
            ['received', 'received_at'],
            ['event_time', 'ts'],
          ] as const) {
            const walked = await walk(name, order, limits);
            if (walked.join() !== referenceOrder(events, time).join()) return false;
          }
          return true;
        },
      ),
      { numRuns: 30 },
    );
    t.pass('both orders agree with the reference');
  });

  /** Every page of one event name in `order`, the page size changing from page to page. */
  async function walk(name: string, order: string, limits: number[]): Promise<string[]> {
    const uuids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 100; page++) {
      const res = await list({ event: name, order, limit: limits[page % limits.length], cursor });
      if (res.status !== 200) throw new Error(`page ${page}: ${res.status} ${res.text}`);
      uuids.push(...res.body.items.map((e: Listed) => e.uuid));
      if (res.body.next_cursor === null) return uuids;
      cursor = res.body.next_cursor;
    }
    throw new Error('more than 100 pages');
  }
});

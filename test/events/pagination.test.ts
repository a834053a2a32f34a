// Keyset pages of the events list: ties at one receipt time, pages that stay put while events
// arrive (newer, older, and at the very position of the cursor), and cursors bound to the project
// and every filter.

import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { createProject } from '../../server/accounts/projects.js';
import { allPages, eventsTenant, ingestOk, qs } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');
// Receipt times in seconds from T0: the access tokens live 15 minutes of the test clock.
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000).toISOString();
const CURSOR_REFUSED = 'cursor does not belong to this query; start again without it';

/** Asserts the list order: receipt time descending, then uuid descending, with no repeats. */
function checkOrder(t: Test, items: Array<{ uuid: string; received_at: string }>): void {
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1]!, items[i]!];
    const ordered = a.received_at > b.received_at || (a.received_at === b.received_at && a.uuid > b.uuid);
    if (!ordered) t.fail(`items ${i - 1} and ${i} out of order: ${a.received_at} ${a.uuid} then ${b.received_at} ${b.uuid}`);
  }
}

t.test('pagination', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const tenant = await eventsTenant(server);
  const { viewer, key, eventsPath } = tenant;

  t.test('137 events at one instant: pages of 10 cover each once, in uuid order', async (t) => {
    const events = Array.from({ length: 137 }, () => ({ uuid: randomUUID(), event: 'tie', anonymous_id: 'x' }));
    await ingestOk(server, key, events);
    const { items, sizes } = await allPages(server, viewer, eventsPath, { event: 'tie', limit: 10 });
    t.same(sizes, [...Array(13).fill(10), 7]);
    t.same(
      items.map((e) => e.uuid),
      events
        .map((e) => e.uuid)
        .sort()
        .reverse(),
    );
    t.ok(items.every((e) => e.received_at === T0.toISOString()));
  });

  t.test('pages stay put while events arrive before, after and at the cursor position', async (t) => {
    // 240 events over 8 receipt times, 30 at each.
    const original: string[] = [];
    for (let m = 0; m < 8; m++) {
      server.clock.set(at(m));
      const batch = Array.from({ length: 30 }, () => ({ uuid: randomUUID(), event: 'paged', anonymous_id: `p${m}` }));
      await ingestOk(server, key, batch);
      original.push(...batch.map((e) => e.uuid));
    }
    const arrivals = { newer: [] as string[], older: [] as string[], tieAbove: [] as string[], tieBelow: [] as string[] };
    let pages = 0;
    const collected = await allPages(server, viewer, eventsPath, { event: 'paged', limit: 25 }, async (page, items) => {
      pages += 1;
      // The cursor sits on the last item of the page just read.
      const last = items.at(-1) as { uuid: string; received_at: string };
      // Newer than everything (a live site keeps sending) and older than everything (a late group).
      const newer = { uuid: randomUUID(), event: 'paged', anonymous_id: 'late' };
      const older = { uuid: randomUUID(), event: 'paged', anonymous_id: 'late' };
      // At the cursor's own receipt time, one uuid above and one below the cursor's uuid.
      const above = { uuid: bump(last.uuid, +1), event: 'paged', anonymous_id: 'late' };
      const below = { uuid: bump(last.uuid, -1), event: 'paged', anonymous_id: 'late' };
      server.clock.set(at(100 + page));
      await ingestOk(server, key, [newer]);
      server.clock.set(at(-10 - page));
      await ingestOk(server, key, [older]);
      server.clock.set(last.received_at);
      const tieEvents = [above, below].filter((e) => !original.includes(e.uuid) && !Object.values(arrivals).flat().includes(e.uuid));
      if (tieEvents.length > 0) await ingestOk(server, key, tieEvents);
      arrivals.newer.push(newer.uuid);
      arrivals.older.push(older.uuid);
      if (tieEvents.includes(above)) arrivals.tieAbove.push(above.uuid);
      if (tieEvents.includes(below)) arrivals.tieBelow.push(below.uuid);
    });
    const uuids = collected.items.map((e) => e.uuid);
    t.equal(new Set(uuids).size, uuids.length, 'no event repeated across pages');
    t.same(
      original.filter((u) => !uuids.includes(u)),
      [],
      'no original event skipped',
    );
    checkOrder(t, collected.items);
    t.same(
      arrivals.newer.filter((u) => uuids.includes(u)),
      [],
      'events newer than the cursor wait for a fresh walk',
    );
    t.same(
      arrivals.tieAbove.filter((u) => uuids.includes(u)),
      [],
      'a tie sorting before the cursor is not shown later',
    );
    t.same(
      arrivals.tieBelow.filter((u) => !uuids.includes(u)),
      [],
      'a tie sorting after the cursor is on a later page',
    );
    t.same(
      arrivals.older.filter((u) => !uuids.includes(u)),
      [],
      'older arrivals are on later pages',
    );
    t.ok(pages > 5);
  });

  t.test('pages read while ingestion runs concurrently', async (t) => {
    server.clock.set(at(300));
    const base = Array.from({ length: 400 }, () => ({ uuid: randomUUID(), event: 'busy', anonymous_id: 'b' }));
    await ingestOk(server, key, base);
    let stop = false;
    const sent: string[] = [];
    const writer = (async () => {
      for (let i = 0; !stop && i < 50; i++) {
        const batch = Array.from({ length: 20 }, () => ({ uuid: randomUUID(), event: 'busy', anonymous_id: 'w' }));
        await ingestOk(server, key, batch);
        sent.push(...batch.map((e) => e.uuid));
      }
    })();
    const collected = await allPages(server, viewer, eventsPath, { event: 'busy', limit: 30 });
    stop = true;
    await writer;
    const uuids = collected.items.map((e) => e.uuid);
    t.ok(sent.length > 0, 'ingestion ran during the walk');
    t.equal(new Set(uuids).size, uuids.length, 'no repeats');
    t.same(
      base.map((e) => e.uuid).filter((u) => !uuids.includes(u)),
      [],
      'every event present at the start is listed',
    );
    checkOrder(t, collected.items);
  });

  t.test('cursors are bound to the project, the view and every filter', async (t) => {
    server.clock.set(at(400));
    await ingestOk(
      server,
      key,
      Array.from({ length: 5 }, (_, i) => ({ event: i % 2 ? 'bound-a' : 'bound-b', anonymous_id: 'anon-1', user_id: 'u1' })),
    );
    const first = await server.request('GET', eventsPath + qs({ event: ['bound-a', 'bound-b'], limit: 2 }), { token: viewer });
    const cursor: string = first.body.next_cursor;
    t.type(cursor, 'string');

    const ok = async (params: Record<string, any>, path = eventsPath, token = viewer) => {
      const res = await server.request('GET', path + qs({ ...params, cursor }), { token });
      t.equal(res.status, 200, JSON.stringify(params));
      return res;
    };
    const refused = async (params: Record<string, any>, path = eventsPath, token = viewer, c = cursor) => {
      const res = await server.request('GET', path + qs({ ...params, cursor: c }), { token });
      t.equal(res.status, 422, JSON.stringify(params));
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.message, CURSOR_REFUSED);
      t.equal(res.body.error.details.field, 'cursor');
    };
    const next = await ok({ event: ['bound-a', 'bound-b'], limit: 2 });
    t.equal(next.body.items.length, 2);
    t.notSame(
      next.body.items.map((e: any) => e.uuid),
      first.body.items.map((e: any) => e.uuid),
    );
    await ok({ event: ['bound-b', 'bound-a', 'bound-a'], limit: 3 }); // same set of names; the page size is free

    await refused({ event: 'bound-a', limit: 2 });
    await refused({ limit: 2 });
    await refused({ event: ['bound-a', 'bound-b'], user_id: 'u1' });
    await refused({ event: ['bound-a', 'bound-b'], anonymous_id: 'anon-1' });
    await refused({ event: ['bound-a', 'bound-b'], actor_id: 'u1' });
    await refused({ event: ['bound-a', 'bound-b'], sdk_name: 'pp-node' });
    await refused({ event: ['bound-a', 'bound-b'], release: 'v1' });
    await refused({ event: ['bound-a', 'bound-b'], invalid_only: true });
    await refused({ event: ['bound-a', 'bound-b'], source: 'server' });
    await refused({ event: ['bound-a', 'bound-b'], from: at(0) });
    await refused({ event: ['bound-a', 'bound-b'], to: at(800) });
    // A cursor of the regular list is no cursor of the doctor view over the same filters.
    const single = await server.request('GET', eventsPath + qs({ event: 'bound-a', limit: 1 }), { token: viewer });
    await refused({ event: 'bound-a', view: 'doctor', from: at(0), to: at(800) }, eventsPath, viewer, single.body.next_cursor);

    // The same filters on another project the same member can read.
    const second = createProject(server.running.services.meta, { orgId: tenant.org.id, name: 'Second' }, T0);
    const owner = await accessTokenFor(server, tenant.owner, tenant.org);
    await ingestOk(server, createIngestKey(server, second), [{ event: 'bound-a', anonymous_id: 'z' }]);
    await refused({ event: ['bound-a', 'bound-b'], limit: 2 }, `/api/v1/projects/${second.id}/events`, owner);

    // Altered cursors: each part changed in turn.
    const [format, body, mac] = cursor.split('.') as [string, string, string];
    const position = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    const forged = Buffer.from(JSON.stringify({ ...position, at: '0' })).toString('base64url');
    for (const bad of [`${format}.${forged}.${mac}`, `${format}.${body}.${flip(mac)}`, `x1.${body}.${mac}`, `${format}.${body}`, `${cursor}.x`, 'e1..', flip(cursor)]) {
      await refused({ event: ['bound-a', 'bound-b'], limit: 2 }, eventsPath, viewer, bad);
    }
  });
});

/** The uuid whose last hex digit group is one more or less (never wrapping past f or 0). */
function bump(uuid: string, delta: number): string {
  const last = BigInt(`0x${uuid.slice(24)}`) + BigInt(delta);
  const clamped = last < 0n ? 0n : last > 0xffffffffffffn ? 0xffffffffffffn : last;
  return uuid.slice(0, 24) + clamped.toString(16).padStart(12, '0');
}

function flip(s: string): string {
  const i = Math.floor(s.length / 2);
  return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
}

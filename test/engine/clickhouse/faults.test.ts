// What survives which fault on 2 shards × 2 replicas, pp given every node's URL: a replica killed
// while events are ingested and while the events list is read (the answers stay DuckDB's, nothing
// acknowledged is lost), and pp itself killed (SIGKILL) during a load (after its restart every
// acknowledged event is there once). The store down and back while pp runs, and pp stopped
// meanwhile, are clickHouseServer.test.ts's, on one node.

import t, { type Test } from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startClickHouse, type ClickHouseCluster, type ClickHouseNode } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { eventually } from '../../support/eventually.js';
import { allPages, eventsTenant, ingestOk, type EventsTenant } from '../../events/eventsKit.js';
import { ingestEvents } from '../../support/ingest.js';
import { spawnServe, type ServeProcess } from '../../support/ppctl.js';

t.setTimeout(300_000);

const SECRET = 'one secret for the servers compared';
const T0 = Date.UTC(2026, 10, 2, 9, 0, 0);

/** Events of many distinct ids (so both shards hold some), at distinct instants. */
function batchOf(first: number, size: number): Array<Record<string, unknown>> {
  return Array.from({ length: size }, (_, i) => {
    const n = first + i;
    return { uuid: randomUUID(), event: n % 3 ? 'view' : 'signup', anonymous_id: `visitor-${n % 17}`, props: { n }, ts: new Date(T0 + n * 1000).toISOString() };
  });
}

function settingsOf(ch: ClickHouseCluster, database: string): Record<string, string> {
  return { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.cluster': ch.cluster!, 'clickhouse.database': database };
}

/** Each uuid the database holds, read with FINAL (once per event), and how many rows it holds for them without. */
async function held(node: ClickHouseNode, database: string): Promise<{ uuids: string[]; rows: number }> {
  // With a condition, as pp's reads have: 18.16 refuses `SELECT uuid FROM <Distributed> FINAL` alone
  // ("cannot find column distinct_key"), a condition on a column makes it read the sorting key.
  const uuids = (await node.query(`SELECT toString(e.uuid) AS u FROM ${database}.events AS e FINAL WHERE e.project_id > 0 ORDER BY u FORMAT TSV`)).trim().split('\n').filter(Boolean);
  return { uuids, rows: uuids.length };
}

/** The URL a `ppctl serve` listens on, from its log line (on ClickHouse the migrations' lines come first). */
function listening(serve: ServeProcess): Promise<string> {
  return eventually(
    'listening',
    async () => serve.stdout.map((line) => JSON.parse(line) as { msg?: string; url?: string }).find((l) => l.msg === 'listening')?.url,
    (url) => url !== undefined,
  ) as Promise<string>;
}

const sorted = (events: Array<Record<string, unknown>>) => events.map((e) => String(e.uuid)).sort();

/** Every page of the events list, 25 at a time, through `between` (called after each page). */
async function listAll(server: TestServer, w: EventsTenant, between?: (page: number) => Promise<void>) {
  return (await allPages(server, w.viewer, w.eventsPath, { limit: 25 }, between ? (page) => between(page) : undefined)).items;
}

async function duckDbTwin(t: Test, events: Array<Record<string, unknown>>): Promise<{ server: TestServer; w: EventsTenant }> {
  const server = await startTestServer(t, { settings: { secret: SECRET } });
  const w = await eventsTenant(server);
  for (let at = 0; at < events.length; at += 40) await ingestOk(server, w.key, events.slice(at, at + 40));
  return { server, w };
}

t.test('2 shards × 2 replicas: a replica killed during ingest and during reads, every node down and back, pp killed during a load', async (t) => {
  const ch = await startClickHouse(t, 'replicated');

  await t.test('a replica killed while events are ingested: every acknowledged event is stored once, the list is DuckDB’s', async (t) => {
    const server = await startTestServer(t, { settings: settingsOf(ch, 'pp_ingest') });
    const w = await eventsTenant(server);
    const sent: Array<Record<string, unknown>> = [];
    let victim = ch.nodes[1]!;
    for (let batch = 0; batch < 10; batch++) {
      const events = batchOf(batch * 20, 20);
      await ingestOk(server, w.key, events);
      sent.push(...events);
      if (batch === 3) await victim.kill();
    }
    t.equal((await ingestEvents(server, w.key, batchOf(500, 1))).status, 202, 'ingestion still acknowledges with shard 1 down to one replica');
    victim = await victim.restart();
    ch.nodes[1] = victim;
    const all = [...sent];
    const stored = await eventually(
      'every acknowledged event stored',
      () => held(ch.nodes[0]!, 'pp_ingest'),
      (h) => h.rows >= all.length + 1,
      120_000,
    );
    t.equal(new Set(stored.uuids).size, stored.uuids.length, 'each uuid once under FINAL');
    const expected = sorted([...all]);
    t.same(
      stored.uuids.filter((u) => expected.includes(u)),
      expected,
      'every event of the acknowledged batches',
    );
    const twin = await duckDbTwin(t, [...all]);
    const onClickHouse = (await listAll(server, w)).filter((e: { uuid: string }) => expected.includes(e.uuid));
    t.same(onClickHouse, await listAll(twin.server, twin.w), 'the events list as DuckDB answers it');
    await server.close();
    await twin.server.close();
  });

  await t.test('the node pp reads from killed between pages of the events list: the pages are DuckDB’s', async (t) => {
    const events = batchOf(1000, 120);
    const server = await startTestServer(t, { settings: settingsOf(ch, 'pp_reads') });
    const w = await eventsTenant(server);
    for (let at = 0; at < events.length; at += 40) await ingestOk(server, w.key, events.slice(at, at + 40));
    await eventually(
      'stored',
      () => held(ch.nodes[2]!, 'pp_reads'),
      (h) => h.rows === events.length,
    );
    const twin = await duckDbTwin(t, events);
    const expected = await listAll(twin.server, twin.w);
    t.equal(expected.length, events.length);
    const first = ch.nodes[0]!;
    const pages = await listAll(server, w, async (page) => {
      if (page === 1) await first.kill();
    });
    t.same(pages, expected, 'every page, across the kill of the first URL (pp moves to the next)');
    const again = await listAll(server, w);
    t.same(again, expected, 'and read again whole with one replica of shard 1 left');
    ch.nodes[0] = await first.restart();
    await server.close();
    await twin.server.close();
  });

  await t.test('pp killed (SIGKILL) during a load: after its restart every acknowledged event is there once', async (t) => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-faults-'));
    t.teardown(() => rm(dataDir, { recursive: true, force: true }));
    const settings = settingsOf(ch, 'pp_crash');
    // The project and its key, made by a server that then stops; the server killed is a process of its own.
    const setup = await startTestServer(t, { settings, dataDir });
    const w = await eventsTenant(setup);
    await setup.close();
    const env = {
      PP_DATA_DIR: dataDir,
      PP_SECRET: SECRET,
      PP_EVENTS_ENGINE: 'clickhouse',
      PP_CLICKHOUSE_URLS: ch.urls.join(','),
      PP_CLICKHOUSE_CLUSTER: ch.cluster!,
      PP_CLICKHOUSE_DATABASE: 'pp_crash',
    };
    const serve = await spawnServe([], env);
    t.teardown(() => void serve.child.kill('SIGKILL'));
    const url = await listening(serve);
    const acknowledged: Array<Record<string, unknown>> = [];
    let refused = '';
    const post = async (url: string, events: Array<Record<string, unknown>>) =>
      fetch(`${url}/v1/track`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${w.key.value}` }, body: JSON.stringify({ events }) }).then(
        async (r) => {
          if (r.status !== 202) refused = `${r.status} ${await r.text()}`;
          return r.status;
        },
        (err: Error) => ((refused = err.message), 0),
      );
    // Batches sent back to back; the kill lands while the loader is storing them.
    let n = 5000;
    const sending = (async () => {
      for (;;) {
        const events = batchOf(n, 25);
        n += 25;
        const status = await post(url, events);
        if (status === 202) acknowledged.push(...events);
        else return;
      }
    })();
    await eventually(
      'loading under way',
      async () => (refused ? refused : (await held(ch.nodes[0]!, 'pp_crash')).rows),
      (h) => typeof h === 'string' || h >= 100,
      60_000,
    );
    t.equal(refused, '', 'every batch acknowledged until the kill');
    serve.child.kill('SIGKILL');
    await serve.exited;
    await sending;
    t.comment(`at the kill ${(await held(ch.nodes[0]!, 'pp_crash')).rows} of ${acknowledged.length} acknowledged events were stored`);
    t.ok(acknowledged.length >= 100, `${acknowledged.length} events acknowledged before the kill`);
    const restarted = await spawnServe([], env);
    t.teardown(() => void restarted.child.kill());
    const stored = await eventually(
      'every acknowledged event loaded after the restart',
      () => held(ch.nodes[1]!, 'pp_crash'),
      (h) => h.rows >= acknowledged.length,
      120_000,
    );
    const expected = sorted(acknowledged);
    t.same(
      stored.uuids.filter((u) => expected.includes(u)),
      expected,
      'every acknowledged event, each once under FINAL',
    );
    t.equal(new Set(stored.uuids).size, stored.uuids.length);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  });
});

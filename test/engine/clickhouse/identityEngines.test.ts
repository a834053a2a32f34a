// Identity on ClickHouse answers as on DuckDB: the same identify, alias and trait updates (chains,
// merges of actors, a conflict, $set, $set_once and null, the same requests and PostHog batch sent
// again) and an import's batch of links and traits (applied as a failure after its first INSERT
// leaves it, then whole, twice) on a DuckDB server and on a ClickHouse server (one node, and
// 2 shards × 2 replicas), with events before and after. Both answer the same events list by actor
// (and the same actor on every item), and their tables hold the same links and traits, read
// directly. Every write happens at one instant of the server's clock: each row still gets a version
// of its own, larger than the last, also after a restart with the clock set back.

import t, { type Test } from 'tap';
import { gzipSync } from 'node:zlib';
import { startClickHouse, type ClickHouseCluster, type Topology } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { accessTokenFor } from '../../support/factories.js';
import { eventsTenant, ingestOk, qs, type EventsTenant } from '../../events/eventsKit.js';
import { applyIdentities, type TraitsUpdate } from '../../../server/ingest/identity.js';
import { actorsOf } from '../../../server/events/actors.js';

const SECRET = 'the same secret on both servers';
const T0 = new Date('2026-11-02T12:00:00Z');
const DATABASE = 'pp_identity';

const identify = (server: TestServer, w: EventsTenant, body: unknown) => server.request('POST', '/v1/identify', { token: w.key.value, body });
const alias = (server: TestServer, w: EventsTenant, body: unknown) => server.request('POST', '/v1/alias', { token: w.key.value, body });

/** A PostHog batch: an $identify with $set and $set_once, and an event carrying traits of its own. */
function posthogBatch(w: EventsTenant, n: number): Buffer {
  return gzipSync(
    JSON.stringify({
      api_key: w.key.value,
      batch: [
        {
          event: '$identify',
          distinct_id: 'user-3',
          uuid: `00000000-0000-4000-8000-00000000010${n}`,
          properties: { $anon_distinct_id: 'anon-4', $set: { email: 'c@shop.example', tier: null }, $set_once: { plan: 'trial', first_seen: '2026-10-01' } },
        },
        {
          event: 'upgrade',
          distinct_id: 'user-2',
          uuid: `00000000-0000-4000-8000-00000000020${n}`,
          properties: { $set: { plan: 'team' }, $set_once: { plan: 'never', since: 2019, nested: { a: 9, z: 1 } } },
        },
      ],
    }),
  );
}

/** An import's batch of links (a chain through user-4) and traits ($set with a null, $set_once). */
const BATCH_LINKS = [
  { from: 'anon-5', to: 'user-4' },
  { from: 'anon-6', to: 'user-4' },
  { from: 'user-4', to: 'user-2' },
];
const BATCH_TRAITS: TraitsUpdate[] = [
  { userId: 'user-4', traits: { seats: 3, gone: null }, once: false },
  { userId: 'user-4', traits: { region: 'eu', seats: 9 }, once: true },
  { userId: 'user-1', traits: { plan: 'legacy', nested: { d: 4 } }, once: true },
];

async function post(what: string, res: Promise<{ status: number; text: string }>): Promise<void> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what} answered ${r.status}: ${r.text}`);
}

/** The scenario, every request at one instant of the clock. Answers every answer's status and body. */
async function identityWorld(server: TestServer, w: EventsTenant): Promise<unknown[]> {
  const at = (minute: number) => new Date(T0.getTime() - (60 - minute) * 60_000).toISOString();
  await ingestOk(server, w.key, [
    { uuid: '00000000-0000-4000-8000-000000000001', event: 'view', anonymous_id: 'anon-1', ts: at(1) },
    { uuid: '00000000-0000-4000-8000-000000000002', event: 'view', anonymous_id: 'anon-2', ts: at(2) },
    { uuid: '00000000-0000-4000-8000-000000000003', event: 'view', anonymous_id: 'anon-3', ts: at(3) },
    { uuid: '00000000-0000-4000-8000-000000000004', event: 'view', anonymous_id: 'anon-4', ts: at(4) },
    { uuid: '00000000-0000-4000-8000-000000000005', event: 'view', anonymous_id: 'stranger', ts: at(5) },
    { uuid: '00000000-0000-4000-8000-000000000006', event: 'view', anonymous_id: 'anon-6', ts: at(6) },
  ]);
  const answers: unknown[] = [];
  const keep = async (res: Promise<{ status: number; body: unknown }>) => {
    const r = await res;
    answers.push({ status: r.status, body: r.body });
  };
  await keep(identify(server, w, { anonymous_id: 'anon-1', user_id: 'user-1', traits: { plan: 'free', seats: 1, nested: { a: 1, b: 2 }, '7': 'seven' } }));
  await keep(identify(server, w, { anonymous_id: 'anon-2', user_id: 'user-1', traits: { plan: 'pro', seats: null, nested: { b: null, c: 3 } } }));
  // The first claim wins.
  await keep(identify(server, w, { anonymous_id: 'anon-1', user_id: 'user-2' }));
  // user-1 and everything linked to it become user-2's.
  await keep(alias(server, w, { previous_id: 'user-1', user_id: 'user-2' }));
  // Linking to a merged id goes where it went; an actor aliased to one of its own ids changes nothing.
  await keep(alias(server, w, { previous_id: 'anon-3', user_id: 'user-1' }));
  await keep(alias(server, w, { previous_id: 'user-2', user_id: 'anon-3' }));
  await keep(identify(server, w, { anonymous_id: 'anon-9', user_id: 'anon-9' }));
  // The same request again.
  await keep(identify(server, w, { anonymous_id: 'anon-2', user_id: 'user-1', traits: { plan: 'pro', seats: null, nested: { b: null, c: 3 } } }));
  for (const n of [1, 2]) {
    const res = await server.request('POST', '/batch/', { raw: posthogBatch(w, n), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    answers.push({ status: res.status, body: res.body });
  }
  // The same batch again (its events are stored once; its identities applied again).
  const again = await server.request('POST', '/batch/', { raw: posthogBatch(w, 2), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
  answers.push({ status: again.status, body: again.body });
  // An import's batch as a failure after its links' INSERT leaves it, then the whole batch applied
  // again, twice, as ingestion applies a batch until it is acknowledged.
  const services = server.running.services;
  await applyIdentities(services, w.project.id, BATCH_LINKS, []);
  await applyIdentities(services, w.project.id, BATCH_LINKS, BATCH_TRAITS);
  await applyIdentities(services, w.project.id, BATCH_LINKS, BATCH_TRAITS);
  await ingestOk(server, w.key, [
    { uuid: '00000000-0000-4000-8000-000000000011', event: 'buy', anonymous_id: 'anon-1', user_id: 'user-2', ts: at(11) },
    { uuid: '00000000-0000-4000-8000-000000000012', event: 'buy', user_id: 'user-3', ts: at(12) },
    { uuid: '00000000-0000-4000-8000-000000000013', event: 'buy', anonymous_id: 'anon-5', ts: at(13) },
    { uuid: '00000000-0000-4000-8000-000000000014', event: 'buy', anonymous_id: 'stranger', ts: at(14) },
  ]);
  await post('a last alias', alias(server, w, { previous_id: 'stranger', user_id: 'user-3' }));
  return answers;
}

const ACTORS = ['user-2', 'user-1', 'anon-1', 'anon-3', 'user-3', 'anon-4', 'user-4', 'anon-5', 'anon-6', 'stranger', 'anon-9', 'nobody'];

/** The whole list, and every actor's list page by page. */
async function lists(server: TestServer, w: EventsTenant): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const actor of [undefined, ...ACTORS]) {
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await server.request('GET', w.eventsPath + qs({ actor_id: actor, limit: 3, order: 'event_time', cursor }), { token: w.viewer });
      out.push({ actor, page, status: res.status, body: res.body });
      if (res.status !== 200 || res.body.next_cursor === null) break;
      cursor = res.body.next_cursor;
    }
  }
  return out;
}

interface Stored {
  links: Array<{ distinct_id: string; actor_id: string; distinct_key: string; actor_key: string }>;
  traits: Array<{ user_id: string; traits: unknown }>;
}

async function duckdbTables(server: TestServer, projectId: number): Promise<Stored> {
  const read = (sql: string) => server.running.services.events.read(sql, [projectId]);
  const links = await read('SELECT distinct_id, actor_id, distinct_key::VARCHAR AS distinct_key, actor_key::VARCHAR AS actor_key FROM identity_links WHERE project_id = $1 ORDER BY distinct_id');
  const traits = await read('SELECT user_id, traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1 ORDER BY user_id');
  return {
    links: links.map((r) => ({ distinct_id: r.distinct_id, actor_id: r.actor_id, distinct_key: r.distinct_key, actor_key: r.actor_key })),
    traits: traits.map((r) => ({ user_id: r.user_id, traits: JSON.parse(r.traits) })),
  };
}

/** The links and traits as they stand, read by the largest version (`argMax`) or with FINAL, on the server's connection. */
async function clickhouseTables(read: (sql: string) => Promise<Array<Record<string, any>>>, projectId: number, form: 'argMax' | 'final'): Promise<Stored> {
  const links =
    form === 'argMax'
      ? await read(`SELECT distinct_id, actor_id, toString(distinct_key) AS distinct_key, toString(actor_key) AS actor_key FROM (
          SELECT distinct_key, argMax(distinct_id, version) AS distinct_id, argMax(actor_id, version) AS actor_id, argMax(actor_key, version) AS actor_key
            FROM identity_links WHERE project_id = ${projectId} GROUP BY distinct_key) ORDER BY distinct_id`)
      : await read(
          `SELECT distinct_id, actor_id, toString(distinct_key) AS distinct_key, toString(actor_key) AS actor_key FROM identity_links FINAL WHERE project_id = ${projectId} ORDER BY distinct_id`,
        );
  const traits =
    form === 'argMax'
      ? await read(`SELECT user_id, argMax(traits, version) AS traits FROM actor_traits WHERE project_id = ${projectId} GROUP BY user_id ORDER BY user_id`)
      : await read(`SELECT user_id, traits FROM actor_traits FINAL WHERE project_id = ${projectId} ORDER BY user_id`);
  return {
    links: links.map((r) => ({ distinct_id: r.distinct_id, actor_id: r.actor_id, distinct_key: r.distinct_key, actor_key: r.actor_key })),
    traits: traits.map((r) => ({ user_id: r.user_id, traits: JSON.parse(r.traits) })),
  };
}

function clickhouseServer(t: Test, ch: ClickHouseCluster, dataDir?: string, now = T0): Promise<TestServer> {
  return startTestServer(t, {
    now,
    dataDir,
    settings: { secret: SECRET, 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), ...(ch.cluster ? { 'clickhouse.cluster': ch.cluster } : {}), 'clickhouse.database': DATABASE },
  });
}

/** The actors of the scenario's ids (and of one never seen), as the live stream looks them up. */
async function actorsOfIds(server: TestServer, w: EventsTenant): Promise<Array<[string, string]>> {
  return [...(await actorsOf(server.running.services, w.project.id, ACTORS))];
}

interface Reference {
  answers: unknown[];
  lists: unknown[];
  stored: Stored;
  actors: Array<[string, string]>;
}

async function compare(t: Test, topology: Topology, reference: Reference): Promise<void> {
  const ch = await startClickHouse(t, topology);
  const server = await clickhouseServer(t, ch);
  const w = await eventsTenant(server);
  t.same(await identityWorld(server, w), reference.answers, 'every identify, alias, batch and import answers as on DuckDB');
  t.same(await lists(server, w), reference.lists, 'the events list, whole and by actor, answers as on DuckDB');
  t.same(await actorsOfIds(server, w), reference.actors, 'the actors of distinct ids, as the live stream reads them');
  const read = (sql: string) => server.running.services.events.read(sql);
  t.same(await clickhouseTables(read, w.project.id, 'argMax'), reference.stored, 'the links and traits by their largest version are DuckDB’s');
  t.same(await clickhouseTables(read, w.project.id, 'final'), reference.stored, 'and read with FINAL');

  // Every row its own version, a re-pointed id's rows in the order they were written.
  const [versions] = await read(`SELECT count() AS n, uniqExact(version) AS versions FROM (SELECT version FROM identity_links UNION ALL SELECT version FROM actor_traits)`);
  t.equal(Number(versions!.versions), Number(versions!.n), 'no two rows share a version, though all were written at one instant');
  // anon-1 was linked to user-1, then re-pointed by a row of a larger version (the first may be gone once parts merged).
  const anon1 = await read(`SELECT actor_id FROM identity_links WHERE project_id = ${w.project.id} AND distinct_id = 'anon-1' ORDER BY version`);
  t.ok(
    [['user-1', 'user-2'], ['user-2']].some((rows) => JSON.stringify(rows) === JSON.stringify(anon1.map((r) => r.actor_id))),
    'anon-1 re-pointed by a row of a larger version',
  );

  if (topology === 'replicated') {
    // Every node holds every link and trait.
    for (const node of ch.nodes) {
      await node.query(`SYSTEM SYNC REPLICA ${DATABASE}.identity_links`);
      await node.query(`SYSTEM SYNC REPLICA ${DATABASE}.actor_traits`);
      const onNode = (sql: string) =>
        node.query(`${sql} FORMAT JSONEachRow`, { database: DATABASE }).then((text) =>
          text
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        );
      t.same(await clickhouseTables(onNode, w.project.id, 'argMax'), reference.stored, `node ${node.httpPort} holds them all`);
    }
    return;
  }

  // A restart with the clock set back a day: the next write still gets a larger version, and wins.
  await server.close();
  const restarted = await clickhouseServer(t, ch, server.dataDir, new Date(T0.getTime() - 86_400_000));
  const res = await restarted.request('POST', '/v1/alias', { token: w.key.value, body: { previous_id: 'user-3', user_id: 'user-2' } });
  t.same(res.body, { accepted: 1, rejected: [] });
  const readAgain = (sql: string) => restarted.running.services.events.read(sql);
  const links = (await clickhouseTables(readAgain, w.project.id, 'argMax')).links;
  t.same(
    links.filter((l) => ['user-3', 'anon-4', 'stranger'].includes(l.distinct_id)).map((l) => [l.distinct_id, l.actor_id]),
    [
      ['anon-4', 'user-2'],
      ['stranger', 'user-2'],
      ['user-3', 'user-2'],
    ],
    'user-3 and the ids linked to it now point at user-2',
  );
  const viewer = await accessTokenFor(restarted, w.owner, w.org);
  const byActor = await restarted.request('GET', w.eventsPath + qs({ actor_id: 'user-2', limit: 50 }), { token: viewer });
  t.ok(
    byActor.body.items.some((i: { distinct_id: string; actor_id: string }) => i.distinct_id === 'stranger' && i.actor_id === 'user-2'),
    "the list by actor finds the stranger's events under user-2",
  );
}

t.test('identify, alias and traits on ClickHouse answer and store as on DuckDB', async (t) => {
  const duckdb = await startTestServer(t, { now: T0, settings: { secret: SECRET } });
  const w = await eventsTenant(duckdb);
  const answers = await identityWorld(duckdb, w);
  const reference: Reference = { answers, lists: await lists(duckdb, w), stored: await duckdbTables(duckdb, w.project.id), actors: await actorsOfIds(duckdb, w) };
  // The scenario does what it says on DuckDB.
  t.same(
    (answers[2] as { body: { rejected: Array<{ code: string }> } }).body.rejected.map((r) => r.code),
    ['identity_conflict'],
    'a second claim is refused',
  );
  const user2 = reference.stored.links.filter((l) => l.actor_id === 'user-2').map((l) => l.distinct_id);
  t.same(user2, ['anon-1', 'anon-2', 'anon-3', 'user-1', 'user-4', 'anon-5', 'anon-6'].sort(), 'merged actors and chains resolve to user-2');
  t.same(reference.stored.traits.find((r) => r.user_id === 'user-2')?.traits, { plan: 'team', since: 2019, nested: { a: 9, z: 1 } });
  t.same(reference.stored.traits.find((r) => r.user_id === 'user-1')?.traits, { plan: 'pro', nested: { a: 1, c: 3, d: 4 }, '7': 'seven' });
  t.same(reference.stored.traits.find((r) => r.user_id === 'user-3')?.traits, { email: 'c@shop.example', plan: 'trial', first_seen: '2026-10-01' });
  t.same(reference.stored.traits.find((r) => r.user_id === 'user-4')?.traits, { seats: 3, region: 'eu' });
  const lastPages = reference.lists as Array<{ actor?: string; status: number; body: { items: Array<{ actor_id: string }> } }>;
  t.ok(
    lastPages.every((p) => p.status === 200),
    'DuckDB answers every list',
  );
  t.ok(lastPages.filter((p) => p.actor === 'user-2').reduce((n, p) => n + p.body.items.length, 0) >= 5, "user-2's list holds its merged ids' events");

  await t.test('one node', (t) => compare(t, 'single', reference));
  await t.test('2 shards × 2 replicas', (t) => compare(t, 'replicated', reference));
});

// Randomized identity on ClickHouse: sequences of identify and alias calls over a few ids, sent to a
// ClickHouse server (one node) and a DuckDB server, against a plain parent-pointer model of the
// rules (first claim wins, linking to an id goes where that id resolves). Every call's outcome, every
// id's actor, the events list by actor and the links table (flat, its keys those of its ids) agree
// with the model, also after an import's batch too large for one statement's text. And the traits merge ClickHouse's writer computes is DuckDB's json_merge_patch,
// text and key order included, for random objects.

import t from 'tap';
import fc from 'fast-check';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { eventsTenant, ingestOk, qs, type EventsTenant } from '../../events/eventsKit.js';
import { applyIdentities, resolveActor } from '../../../server/ingest/identity.js';
import { mergePatch } from '../../../server/engine/clickhouse/ingestSql.js';

const RUNS = 15;
const IDS = 6;
const id = (run: number, n: number) => `r${run}-${n}`;

interface Side {
  server: TestServer;
  w: EventsTenant;
}

async function side(server: TestServer): Promise<Side> {
  const w = await eventsTenant(server);
  // One event per id of every run, so the list by actor shows whose events an actor holds.
  const events = Array.from({ length: RUNS * IDS }, (_, i) => ({ event: 'view', anonymous_id: id(Math.floor(i / IDS) + 1, i % IDS) }));
  await ingestOk(server, w.key, events);
  return { server, w };
}

async function link(s: Side, op: 'identify' | 'alias', from: string, to: string): Promise<'linked' | 'conflict'> {
  const body = op === 'identify' ? { anonymous_id: from, user_id: to } : { previous_id: from, user_id: to };
  const res = await s.server.request('POST', `/v1/${op}`, { token: s.w.key.value, body });
  if (res.status !== 202) throw new Error(`${op} answered ${res.status}: ${res.text}`);
  return res.body.rejected.length === 1 ? 'conflict' : 'linked';
}

/** The distinct ids of the events the list holds for `actor`, and the actor each item names. */
async function listOf(s: Side, actor: string): Promise<{ ids: string[]; actors: string[] }> {
  const res = await s.server.request('GET', s.w.eventsPath + qs({ actor_id: actor, limit: 100 }), { token: s.w.viewer });
  if (res.status !== 200) throw new Error(`the list answered ${res.status}: ${res.text}`);
  const items = res.body.items as Array<{ distinct_id: string; actor_id: string }>;
  return { ids: items.map((i) => i.distinct_id).sort(), actors: [...new Set(items.map((i) => i.actor_id))] };
}

t.test('randomized identify and alias on ClickHouse agree with a parent-pointer model', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const clickhouse = await side(await startTestServer(t, { settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_identity_model' } }));
  const duckdb = await side(await startTestServer(t));
  const read = (sql: string) => clickhouse.server.running.services.events.read(sql);
  const projectId = clickhouse.w.project.id;
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ op: fc.constantFrom('identify' as const, 'alias' as const), from: fc.nat(IDS - 1), to: fc.nat(IDS - 1) }), { minLength: 1, maxLength: 10 }),
      fc.nat(IDS - 1),
      async (ops, probe) => {
        run += 1;
        if (run > RUNS) throw new Error('more runs than ids ingested');
        const parent = new Map<string, string>();
        const root = (x: string): string => (parent.has(x) ? root(parent.get(x)!) : x);
        for (const { op, from, to } of ops) {
          const [f, target] = [id(run, from), root(id(run, to))];
          let expected: 'linked' | 'conflict' = 'linked';
          if (parent.has(f)) expected = root(f) === target ? 'linked' : 'conflict';
          else if (target !== f) parent.set(f, target);
          for (const s of [clickhouse, duckdb]) {
            const got = await link(s, op, f, id(run, to));
            if (got !== expected) throw new Error(`${op} ${f} → ${id(run, to)} on ${s.server.running.services.events.kind}: ${got}, the model says ${expected}`);
          }
        }
        for (let n = 0; n < IDS; n++) {
          for (const s of [clickhouse, duckdb]) {
            const actor = await resolveActor(s.server.running.services, s.w.project.id, id(run, n));
            if (actor !== root(id(run, n))) throw new Error(`${id(run, n)} resolves to ${actor} on ${s.server.running.services.events.kind}, the model says ${root(id(run, n))}`);
          }
        }
        const actor = root(id(run, probe));
        const members = Array.from({ length: IDS }, (_, n) => id(run, n)).filter((x) => root(x) === actor);
        const expectedList = { ids: members.sort(), actors: [actor] };
        t.same(await listOf(clickhouse, actor), expectedList, `ClickHouse's list of ${actor}`);
        t.same(await listOf(duckdb, actor), expectedList, `DuckDB's list of ${actor}`);
        return true;
      },
    ),
    { numRuns: RUNS },
  );

  // An import's batch larger than a statement's text may be (256 KiB): its links go in one INSERT, its users' traits are read in slices.
  const bulkLinks = Array.from({ length: 6000 }, (_, i) => ({ from: `bulk-anonymous-device-${i}`, to: `bulk-user-${i % 500}` }));
  const bulkTraits = Array.from({ length: 3000 }, (_, i) => ({ userId: `bulk-user-with-a-longer-name-${i}`, traits: { n: i, plan: 'x'.repeat(20), gone: null }, once: i % 3 === 0 }));
  for (const s of [clickhouse, duckdb]) {
    await applyIdentities(s.server.running.services, s.w.project.id, bulkLinks, bulkTraits);
    await applyIdentities(s.server.running.services, s.w.project.id, bulkLinks.slice(0, 10), [{ userId: 'bulk-user-with-a-longer-name-0', traits: { n: -1, more: true }, once: false }]);
  }

  // As they stand, no link points at a linked id, and every link holds its ids' keys (as DuckDB computes them).
  const links = `SELECT distinct_key, argMax(distinct_id, version) AS distinct_id, argMax(actor_id, version) AS actor_id, argMax(actor_key, version) AS actor_key
    FROM identity_links WHERE project_id = ${projectId} GROUP BY distinct_key`;
  const [chained] = await read(`SELECT count() AS n FROM (${links}) WHERE actor_id IN (SELECT distinct_id FROM (${links}))`);
  t.equal(Number(chained!.n), 0, 'links stay flat');
  const mine = await read(`SELECT distinct_id, actor_id, toString(distinct_key) AS dk, toString(actor_key) AS ak FROM (${links}) ORDER BY distinct_id`);
  const theirs = await duckdb.server.running.services.events.read(
    'SELECT distinct_id, actor_id, distinct_key::VARCHAR AS dk, actor_key::VARCHAR AS ak FROM identity_links WHERE project_id = $1 ORDER BY distinct_id',
    [duckdb.w.project.id],
  );
  t.ok(mine.length > 0, 'the runs linked ids');
  t.same(mine, theirs, 'the same links and keys as DuckDB');
  const traits = await read(`SELECT user_id, argMax(traits, version) AS traits FROM actor_traits WHERE project_id = ${projectId} GROUP BY user_id ORDER BY user_id`);
  const duckdbTraits = await duckdb.server.running.services.events.read('SELECT user_id, traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1 ORDER BY user_id', [duckdb.w.project.id]);
  t.equal(traits.length, 3000);
  t.same(traits, duckdbTraits, 'the same traits, as text, as DuckDB');
});

t.test("the traits merge is DuckDB's json_merge_patch", async (t) => {
  const server = await startTestServer(t);
  const key = fc.constantFrom('a', 'b', 'c', 'd');
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.integer({ min: -5, max: 5 }),
      fc.constantFrom('x', 'y'),
      tie('object'),
      fc.array(fc.integer(), { maxLength: 2 }),
    ),
    object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  }));
  const object = fc.dictionary(key, value, { maxKeys: 4 });
  await fc.assert(
    fc.asyncProperty(object, object, async (target, patch) => {
      const [row] = await server.running.services.events.read('SELECT json_merge_patch($1::JSON, $2::JSON)::VARCHAR AS merged', [JSON.stringify(target), JSON.stringify(patch)]);
      t.equal(JSON.stringify(mergePatch(target, patch)), row!.merged, `${JSON.stringify(target)} patched by ${JSON.stringify(patch)}`);
      return true;
    }),
    { numRuns: 150 },
  );
});

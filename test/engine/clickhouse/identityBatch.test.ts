// Links asked for together (identify and alias requests arriving while the writer is busy) are
// decided in one writer turn: each answer, and the links stored, are those of the same links asked
// for one after another, on DuckDB and on ClickHouse (one node): first claim wins, a merged actor's
// ids move with it, linking an id to itself or to its own actor changes nothing.

import t from 'tap';
import fc from 'fast-check';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../../support/testServer.js';
import { linkIdentity, type LinkOutcome } from '../../../server/ingest/identity.js';
import { ingestWriter } from '../../../server/ingest/groupWriter.js';
import { statementsOf } from '../../../server/engine/statements.js';

const IDS = ['anon-1', 'anon-2', 'anon-3', 'user-1', 'user-2', 'user-3'];

/** Links as waves: the links of a wave are asked for at once, a wave once the one before is answered. */
const wavesArb = fc.array(fc.array(fc.record({ from: fc.constantFrom(...IDS), to: fc.constantFrom(...IDS) }), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 });

async function storedLinks(server: TestServer, projectId: number): Promise<Array<[string, string]>> {
  const services = server.running.services;
  const rows = await ingestWriter(services).exclusive((conn) => statementsOf(services.events).ingest.projectLinks(conn, projectId));
  return rows.map((r): [string, string] => [String(r.distinct_id), String(r.actor_id)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

t.test('links asked for together answer and store as one after another', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const servers: Array<[string, TestServer]> = [
    ['DuckDB', await startTestServer(t)],
    ['ClickHouse', await startTestServer(t, { settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_links' } })],
  ];
  t.teardown(() => Promise.all(servers.map(([, s]) => s.close())));
  for (const [name, server] of servers) {
    const services = server.running.services;
    let project = 1000;
    await t.test(name, async (t) => {
      let batched = 0;
      await fc.assert(
        fc.asyncProperty(wavesArb, async (waves) => {
          const alone = ++project;
          const together = ++project;
          const one: LinkOutcome[] = [];
          for (const wave of waves) for (const l of wave) one.push(await linkIdentity(services, alone, l.from, l.to));
          const many: LinkOutcome[] = [];
          for (const wave of waves) many.push(...(await Promise.all(wave.map((l) => linkIdentity(services, together, l.from, l.to)))));
          if (waves.some((w) => w.length > 1)) batched += 1;
          t.same(many, one, 'the same answers');
          t.same(await storedLinks(server, together), await storedLinks(server, alone), 'the same links');
          return true;
        }),
        { numRuns: 15 },
      );
      t.ok(batched > 0, 'some links were asked for together');
    });
  }
});

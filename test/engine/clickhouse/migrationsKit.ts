// The ClickHouse migrations applied on servers: the tables on every node, applying twice changes
// nothing, and two installations keep apart. One node: migrations.test.ts; 2 shards × 2 replicas:
// test/queries/sharded.test.ts, on the cluster that file starts once (in databases of their own).

import type { Test } from 'tap';
import { ClickHouseConnection } from '../../../server/engine/clickhouse/connection.js';
import { table } from '../../../server/engine/clickhouse/literal.js';
import { applyMigration, appliedClickHouse, migrateClickHouse, topologyOf } from '../../../server/engine/clickhouse/migrations.js';
import { readMigrations, migrationsDir } from '../../../server/store/migrate.js';
import { queryText, type ClickHouseCluster, type Topology as Layout } from '../../support/clickhouseCluster.js';

function connect(t: Test, ch: ClickHouseCluster, database: string): ClickHouseConnection {
  const conn = new ClickHouseConnection({ urls: ch.urls, cluster: ch.cluster, database, user: 'default' });
  t.teardown(() => conn.close());
  return conn;
}

/** Each node's tables of `database`, with their engines, as text. */
async function tablesOn(ch: ClickHouseCluster, database: string): Promise<string[]> {
  return Promise.all(ch.nodes.map((n) => queryText(n.httpPort, `SELECT name, engine FROM system.tables WHERE database = '${database}' ORDER BY name FORMAT TSV`)));
}

async function createStatements(ch: ClickHouseCluster, database: string): Promise<string> {
  return queryText(ch.nodes[0]!.httpPort, `SELECT name, create_table_query FROM system.tables WHERE database = '${database}' ORDER BY name FORMAT TSV`);
}

/** The case on one layout, on the servers `cluster` gives (their databases pp and pp_other its own). */
export function migrationsCase(t: Test, layout: Layout, cluster: () => Promise<ClickHouseCluster>): void {
  t.test(`migrations, ${layout === 'single' ? 'one node' : '2 shards × 2 replicas'}: applied on every node, once`, async (t) => {
    const ch = await cluster();
    const conn = connect(t, ch, 'pp');
    const files = readMigrations(migrationsDir('clickhouse'));
    const applied = await migrateClickHouse(conn);
    t.same(
      applied.map((m) => m.file),
      files.map((m) => m.file),
      'every file applied',
    );
    const expected =
      layout === 'single'
        ? [
            'actor_traits\tReplacingMergeTree',
            'element_captures\tReplacingMergeTree',
            'events\tReplacingMergeTree',
            'identity_links\tReplacingMergeTree',
            'ingest_journal\tReplacingMergeTree',
            'ingest_rejections\tReplacingMergeTree',
            'replay_chunks\tReplacingMergeTree',
            'schema_migrations\tReplacingMergeTree',
          ]
        : [
            'actor_traits\tReplicatedReplacingMergeTree',
            'element_captures\tReplicatedReplacingMergeTree',
            'events\tDistributed',
            'events_local\tReplicatedReplacingMergeTree',
            'identity_links\tReplicatedReplacingMergeTree',
            'ingest_journal\tReplicatedReplacingMergeTree',
            'ingest_rejections\tDistributed',
            'ingest_rejections_local\tReplicatedReplacingMergeTree',
            'replay_chunks\tDistributed',
            'replay_chunks_local\tReplicatedReplacingMergeTree',
            'schema_migrations\tReplicatedReplacingMergeTree',
          ];
    const tables = await tablesOn(ch, 'pp');
    t.same(
      tables.map((text) => text.trim().split('\n')),
      ch.nodes.map(() => expected),
      'the tables exist on every node',
    );
    const columns = await Promise.all(
      ch.nodes.map((n) =>
        queryText(
          n.httpPort,
          "SELECT table, arrayStringConcat(groupArray(name), ',') FROM system.columns WHERE database = 'pp' AND startsWith(name, 'prop_') GROUP BY table ORDER BY table FORMAT TSV",
        ),
      ),
    );
    const propColumns = 'prop_keys,prop_values,prop_numbers,prop_kinds';
    t.same(
      columns,
      ch.nodes.map(() => `events\t${propColumns}\n${layout === 'single' ? '' : `events_local\t${propColumns}\n`}`),
      'the property columns (0005, 0006) on every node, in the Distributed table too',
    );
    const before = await createStatements(ch, 'pp');
    const ledger = await appliedClickHouse(conn);
    t.same(
      ledger.map((m) => m.version),
      files.map((m) => m.version),
    );

    t.same(await migrateClickHouse(conn), [], 'applied again: nothing is pending');
    t.same(await appliedClickHouse(conn), ledger, 'the ledger is unchanged');
    t.equal(await createStatements(ch, 'pp'), before, 'the tables are unchanged');
    t.same(await tablesOn(ch, 'pp'), tables);

    // Every file applied again from scratch (a ledger lost, a file cut short) is harmless too.
    for (const m of files) await applyMigration(conn, m.sql, await topologyOf(conn));
    t.equal(await createStatements(ch, 'pp'), before, 'statements applied twice change nothing');

    // A row written through the table pp uses is read back from every node.
    await conn.command(
      `INSERT INTO pp.events (project_id, uuid, ts, ts_us, received_at, received_us, event, distinct_id, distinct_key, source, key_id, invalid, invalid_reasons)
       VALUES (1, '00000000-0000-4000-8000-000000000001', '2026-03-02 10:00:00', 123456, '2026-03-02 10:00:01', 0, 'signup', 'user-1', 42, 'server', 'key', 0, [])`,
    );
    if (layout === 'replicated') await Promise.all(ch.nodes.map((n) => n.query('SYSTEM FLUSH DISTRIBUTED pp.events').catch(() => undefined)));
    for (const node of ch.nodes) {
      for (let tries = 0; ; tries++) {
        await node.query('SYSTEM SYNC REPLICA pp.events_local').catch(() => undefined);
        const text = (await node.query('SELECT toString(uuid), ts, ts_us, event, distinct_key FROM pp.events WHERE project_id = 1 FORMAT TSV')).trim();
        if (text !== '' || tries === 50) {
          t.equal(text, '00000000-0000-4000-8000-000000000001\t2026-03-02 10:00:00\t123456\tsignup\t42', `node ${node.url} reads the event`);
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    // A subquery over another table inside a statement over the Distributed events runs on every
    // shard: named with table(), it is found there (in the installation's database, not the default).
    const joined = `SELECT count() AS n FROM events AS e ANY LEFT JOIN (SELECT distinct_key, toUInt8(1) AS linked FROM ${table('identity_links')} FINAL) USING distinct_key WHERE e.project_id = 1`;
    t.same(await conn.query(joined), [{ n: '1' }], 'a joined table named with table() is found on every shard');
    if (layout === 'replicated') {
      await t.rejects(conn.query(joined.replace(table('identity_links'), 'identity_links')), /identity_links/, 'named without its database it is looked for in the default database');
    }

    // A second installation on the same servers: its own database, its own ZooKeeper paths.
    const other = connect(t, ch, 'pp_other');
    t.equal((await migrateClickHouse(other)).length, files.length);
    t.same(
      (await tablesOn(ch, 'pp_other')).map((text) => text.trim().split('\n')),
      ch.nodes.map(() => expected),
    );
    t.equal((await other.query<{ n: string }>('SELECT count() AS n FROM events'))[0]!.n, '0', "it does not see the first one's events");
  });
}

// The ClickHouse engine's tables: made by the versioned files of migrations/clickhouse on every
// node, replicated and sharded on a cluster, a plain ReplacingMergeTree on one node; applying them
// again changes nothing, and two installations keep apart on one cluster. The case on servers is
// migrationsKit.ts's: one node here, 2 shards × 2 replicas in test/queries/sharded.test.ts.

import t from 'tap';
import { renderMigration, renderStatements, splitStatements, type Topology } from '../../../server/engine/clickhouse/migrations.js';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { migrationsCase } from './migrationsKit.js';

const ONE: Topology = { database: 'pp', cluster: undefined, replicated: false, replicas: 1, major: 18 };
const TWO_BY_TWO: Topology = { database: 'pp', cluster: 'pp_test', replicated: true, replicas: 2, major: 18 };

t.test('the marks of a file, filled in for one node and for a cluster', async (t) => {
  const file = `-- a comment with {{marks}}; and a semicolon
CREATE TABLE IF NOT EXISTS {{db}}.{{local:things}} {{on_cluster}} (k UInt64, s {{low_cardinality:String}} DEFAULT 'a;b') ENGINE = {{sharded:things}} ORDER BY k;
{{cluster_only}} CREATE TABLE IF NOT EXISTS {{db}}.things {{on_cluster}} AS {{db}}.things_local ENGINE = Distributed({{cluster}}, {{db}}, things_local, k);
CREATE TABLE {{db}}.everywhere {{on_cluster}} (k UInt64) ENGINE = {{everywhere:everywhere}} ORDER BY k`;
  t.same(splitStatements("SELECT ';' -- x;\n; SELECT `a;b`;"), ["SELECT ';'", 'SELECT `a;b`']);
  t.same(renderMigration(file, ONE), [
    "CREATE TABLE IF NOT EXISTS `pp`.`things`  (k UInt64, s String DEFAULT 'a;b') ENGINE = ReplacingMergeTree ORDER BY k",
    'CREATE TABLE `pp`.everywhere  (k UInt64) ENGINE = ReplacingMergeTree ORDER BY k',
  ]);
  t.same(renderMigration(file, { ...TWO_BY_TWO, major: 23 }), [
    "CREATE TABLE IF NOT EXISTS `pp`.`things_local` ON CLUSTER `pp_test` (k UInt64, s LowCardinality(String) DEFAULT 'a;b') ENGINE = ReplicatedReplacingMergeTree('/clickhouse/pp/pp/tables/{shard}/things', '{replica}') ORDER BY k",
    'CREATE TABLE IF NOT EXISTS `pp`.things ON CLUSTER `pp_test` AS `pp`.things_local ENGINE = Distributed(`pp_test`, `pp`, things_local, k)',
    "CREATE TABLE `pp`.everywhere ON CLUSTER `pp_test` (k UInt64) ENGINE = ReplicatedReplacingMergeTree('/clickhouse/pp/pp/tables/all/everywhere', '{shard}-{replica}') ORDER BY k",
  ]);
  t.match(renderMigration(file, { ...TWO_BY_TWO, replicated: false, replicas: 1 })[0], /ENGINE = ReplacingMergeTree ORDER BY k$/, 'shards without replicas: plain tables under the Distributed one');
  const columns = `{{unless_column:local:things:c}} ALTER TABLE {{db}}.{{local:things}} {{on_cluster}} ADD COLUMN c UInt8;
{{cluster_only}} {{unless_column:things:c}} ALTER TABLE {{db}}.things {{on_cluster}} ADD COLUMN c UInt8`;
  t.same(renderStatements(columns, ONE), [{ sql: 'ALTER TABLE `pp`.`things`  ADD COLUMN c UInt8', unlessColumn: { table: 'things', column: 'c' } }]);
  t.same(renderStatements(columns, TWO_BY_TWO), [
    { sql: 'ALTER TABLE `pp`.`things_local` ON CLUSTER `pp_test` ADD COLUMN c UInt8', unlessColumn: { table: 'things_local', column: 'c' } },
    { sql: 'ALTER TABLE `pp`.things ON CLUSTER `pp_test` ADD COLUMN c UInt8', unlessColumn: { table: 'things', column: 'c' } },
  ]);
});

migrationsCase(t, 'single', () => startClickHouse(t, 'single'));

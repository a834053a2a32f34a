// Shared set-up for the query tests: one real server per test file with an owner's token, a fresh
// project per case, a POST helper, and a deep comparison that tolerates floating-point noise
// (sums of doubles differ in the last bits between the database and the reference code).

import type { Test } from 'tap';
import { startTestServer, type HttpResult, type StartOptions, type TestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant, type Tenant } from '../support/factories.js';
import { createProject } from '../../server/accounts/projects.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import type { EngineKind } from '../../server/engine/engine.js';
import { startClickHouse, type ClickHouseCluster, type Topology } from '../support/clickhouseCluster.js';

export interface QueryHarness {
  server: TestServer;
  /** The ClickHouse servers the harness started or was given (undefined on DuckDB). */
  clickhouse?: ClickHouseCluster;
  /** The server's ClickHouse database (undefined on DuckDB). */
  database?: string;
  tenant: Tenant;
  token: string;
  /** Mints a new token after the clock moved (access tokens live 15 minutes of clock time). */
  renewToken(): Promise<void>;
  /** A new empty project of the tenant's organization. */
  project(timezone?: string): number;
  query<T = any>(projectId: number, path: string, body: unknown, token?: string): Promise<HttpResult<T>>;
}

export interface HarnessOptions extends StartOptions {
  /** The event engine: DuckDB (the default), or ClickHouse started for the file. */
  engine?: EngineKind;
  /** ClickHouse's layout: one node (the default), or 2 shards × 2 replicas. */
  topology?: Topology;
  /** ClickHouse a file started already (its shared cluster), used instead of starting one, and the database there (pp_queries unless given). */
  cluster?: ClickHouseCluster;
  database?: string;
}

/**
 * The clock starts on 2026-01-01 so that a license granted at the start of a file (valid a year)
 * covers every date the tests move the clock to.
 */
export async function queryHarness(t: Test, options: HarnessOptions = {}): Promise<QueryHarness> {
  const { engine = 'duckdb', topology = 'single', cluster, database = 'pp_queries', ...start } = options;
  // `plan` is folded into the property rollup and `n` is not, so breakdowns are checked both ways.
  let settings: Record<string, unknown> = { 'events.rollup_properties': ['plan'], ...options.settings };
  let settle = async () => {};
  let ch: ClickHouseCluster | undefined;
  if (engine === 'clickhouse') {
    ch = cluster ?? (await startClickHouse(t, topology));
    const started = ch;
    settle = () => started.settle(database);
    settings = {
      'events.engine': 'clickhouse',
      'clickhouse.urls': ch.urls.join(','),
      'clickhouse.database': database,
      ...(ch.cluster ? { 'clickhouse.cluster': ch.cluster } : {}),
      ...options.settings,
    };
  }
  const server = await startTestServer(t, { now: new Date('2026-01-01T00:00:00Z'), ...start, settings });
  const tenant = await createTenant(server);
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  let n = 0;
  let queries = 0;
  const h: QueryHarness = {
    server,
    ...(ch ? { clickhouse: ch, database } : {}),
    tenant,
    token,
    async renewToken() {
      h.token = await accessTokenFor(server, tenant.owner, tenant.org);
    },
    project(timezone = 'UTC') {
      n += 1;
      const { meta, clock } = server.running.services;
      return createProject(meta, { orgId: tenant.org.id, name: `case ${n}`, timezone }, clock.now()).id;
    },
    async query(projectId, path, body, asToken) {
      // Queries read the per-day rollup and the raw events past it: every third call finds the
      // rollup fully folded, every third partly (five more events), the others as it was left.
      // ClickHouse keeps no rollups: its queries read the raw events.
      queries += 1;
      if (engine === 'duckdb' && queries % 3 === 1) await actorDayFolder(server.running.services).catchUp();
      if (engine === 'duckdb' && queries % 3 === 2) await actorDayFolder(server.running.services).catchUp({ maxRows: 5 });
      // On replicas, every node first holds every link and event written so far (see `settle`).
      await settle();
      return server.request('POST', `/api/v1/projects/${projectId}/queries/${path}`, { body, token: asToken ?? h.token });
    },
  };
  return h;
}

/** The cases of an insight, given a harness on one engine and how many random runs to make there. */
export type EngineCases = (t: Test, h: QueryHarness, runs: number) => Promise<void>;

/**
 * Random runs of a reference comparison on one ClickHouse node. A statement costs more there, so
 * fewer runs: what a run finds there that DuckDB's runs (the same generators, with ties, zones and
 * DST) do not is a ClickHouse translation of the SQL, which the first few runs already exercise.
 */
export const CLICKHOUSE_RUNS = 8;

/**
 * Runs an insight's cases on DuckDB (`runs.duckdb` random runs, `RUNS` of scenarios.ts unless
 * given) and on one ClickHouse node (`runs.clickhouse`, CLICKHOUSE_RUNS unless given), each with a
 * harness of its own. The comparison on 2 shards × 2 replicas is sharded.test.ts's.
 */
export function onEachEngine(t: Test, cases: EngineCases, runs: { duckdb: number; clickhouse?: number }, options: HarnessOptions = {}): void {
  t.test('DuckDB', async (t) => cases(t, await queryHarness(t, options), runs.duckdb));
  t.test('ClickHouse, one node', async (t) => cases(t, await queryHarness(t, { ...options, engine: 'clickhouse' }), runs.clickhouse ?? CLICKHOUSE_RUNS));
}

/** First difference between two JSON values, numbers equal within 1e-9 (relative); undefined if none. */
export function difference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (typeof expected === 'number' && typeof actual === 'number') {
    const tolerance = 1e-9 * Math.max(1, Math.abs(expected));
    return Math.abs(actual - expected) <= tolerance ? undefined : `${path}: got ${actual}, expected ${expected}`;
  }
  if (expected === null || typeof expected !== 'object') {
    return actual === expected ? undefined : `${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: got ${JSON.stringify(actual)}, expected an array`;
    if (actual.length !== expected.length) return `${path}: got ${actual.length} items, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const d = difference(actual[i], expected[i], `${path}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: got ${JSON.stringify(actual)}, expected an object`;
  for (const key of Object.keys(expected)) {
    const d = difference((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`);
    if (d) return d;
  }
  return undefined;
}

// Loads a size's whole data set into the cluster pp over ClickHouse is measured on, by the product's
// own bulk path: `ppctl events migrate --to clickhouse` from the bench's DuckDB installation (events,
// identity links, traits), then the recordings, which that command leaves in DuckDB, written as
// ingestion writes them (replayIngestSql.ts `chunkValues`).

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import http from 'node:http';
import { loadConfig } from '../../server/ground/config.js';
import { createLogger } from '../../server/ground/logger.js';
import { openServices } from '../../server/openServices.js';
import type { ChunkRow } from '../../server/engine/duckdb/ingestSql.js';
import { CHUNK_COLUMNS, chunkValues } from '../../server/engine/clickhouse/replayIngestSql.js';
import { tuple } from '../../server/engine/clickhouse/literal.js';
import type { EngineCluster } from './clickhouse.js';
import type { Installation } from './installation.js';
import { PPCTL } from './ppServer.js';

export interface BulkLoad {
  /** Wall time of `ppctl events migrate`, ms, and the events it copied. */
  migrateMs: number;
  events: number;
  identityLinks: number;
  /** Recording chunks copied, and how long that took, ms. */
  recordingChunks: number;
  recordingsMs: number;
}

/** `ppctl events migrate --to clickhouse` of the stopped installation into `database` of the cluster. */
async function migrate(inst: Installation, cluster: EngineCluster, database: string, logFile: string): Promise<{ events: number; identity_links: number; mismatches: unknown[] }> {
  const args = [
    PPCTL,
    'events',
    'migrate',
    '--to',
    'clickhouse',
    '--data-dir',
    inst.dataDir,
    '--clickhouse-urls',
    cluster.nodes.map((n) => n.url).join(','),
    '--clickhouse-database',
    database,
    '--json',
  ];
  if (cluster.cluster) args.push('--clickhouse-cluster', cluster.cluster);
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, args, { env: { ...process.env, PP_LICENSE_TRUSTED_KEYS: inst.licenseKeysDir, PP_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', log] });
  closeSync(log);
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve, reject) => child.on('error', reject).on('close', resolve));
  const last = out.trim().split('\n').pop() ?? '';
  if (code !== 0) throw new Error(`ppctl events migrate exited with ${code}: ${last.slice(0, 1000)}; see ${logFile}`);
  const report = JSON.parse(last) as { events: number; identity_links: number; mismatches: unknown[] };
  if (report.mismatches.length > 0) throw new Error(`ppctl events migrate found counts that differ: ${JSON.stringify(report.mismatches).slice(0, 1000)}`);
  return report;
}

/** A chunk as DuckDB's replay_chunks holds it, in the shape ingestion stores (times to the ms, as received). */
function chunkOf(r: Record<string, unknown>): ChunkRow {
  const date = (v: unknown) => (v === null ? null : new Date(Number(v)));
  return {
    projectId: Number(r.project_id),
    sessionId: String(r.session_id),
    seq: Number(r.seq),
    anonymousId: String(r.anonymous_id),
    receivedAt: new Date(Number(r.received_ms)),
    first: date(r.first_ms),
    last: date(r.last_ms),
    eventCount: Number(r.event_count),
    rawBytes: Number(r.raw_bytes),
    keyId: String(r.key_id),
    sdkName: r.sdk_name === null ? null : String(r.sdk_name),
    sdkVersion: r.sdk_version === null ? null : String(r.sdk_version),
    data: Buffer.from(String(r.data_hex), 'hex'),
  };
}

function post(port: number, query: string, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/?${new URLSearchParams({ query, insert_distributed_sync: '1' }).toString()}` }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`ClickHouse refused ${query}: ${text.slice(0, 1000)}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const BLOCK = 20_000;

/** The installation's recording chunks into `database.replay_chunks` of the cluster (through its first node). */
async function copyRecordings(inst: Installation, cluster: EngineCluster, database: string): Promise<number> {
  const opened = await openServices(loadConfig({ flags: { data_dir: inst.dataDir }, env: {} }), { replay: 'wait', log: createLogger('silent') });
  try {
    let copied = 0;
    for (let offset = 0; ; offset += BLOCK) {
      const rows = await opened.services.events.read(
        `SELECT project_id, session_id, seq, anonymous_id, epoch_ms(received_at) AS received_ms, epoch_ms(first_ts) AS first_ms, epoch_ms(last_ts) AS last_ms,
                event_count, raw_bytes, key_id, sdk_name, sdk_version, hex(data) AS data_hex
           FROM replay_chunks ORDER BY project_id, session_id, seq LIMIT ${BLOCK} OFFSET ${offset}`,
      );
      if (rows.length === 0) return copied;
      const values = rows.map((r) => tuple(chunkValues(chunkOf(r)))).join(',');
      await post(cluster.nodes[0]!.httpPort, `INSERT INTO ${database}.replay_chunks (${CHUNK_COLUMNS}) VALUES`, Buffer.from(values, 'utf8'));
      copied += rows.length;
      if (rows.length < BLOCK) return copied;
    }
  } finally {
    await opened.close();
  }
}

/** The whole data set of the stopped DuckDB installation `inst` into `database` of the cluster. */
export async function bulkLoad(inst: Installation, cluster: EngineCluster, database: string, logFile: string): Promise<BulkLoad> {
  const started = performance.now();
  const report = await migrate(inst, cluster, database, logFile);
  const migrateMs = performance.now() - started;
  const copyStarted = performance.now();
  const recordingChunks = await copyRecordings(inst, cluster, database);
  return { migrateMs, events: report.events, identityLinks: report.identity_links, recordingChunks, recordingsMs: performance.now() - copyStarted };
}

// Loads a size's whole data set into the cluster pp over ClickHouse is measured on, by the product's
// own bulk path: `ppctl events migrate --to clickhouse` from the bench's DuckDB installation (events,
// identity links, traits), then the recordings, which that command leaves in DuckDB, copied row for row.

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import http from 'node:http';
import { loadConfig } from '../../server/ground/config.js';
import { createLogger } from '../../server/ground/logger.js';
import { openServices } from '../../server/openServices.js';
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

/** A ClickHouse TabSeparated field: the bytes as they are, but for the escapes the format reads. */
const tsvField = (v: string | null, encoding: BufferEncoding = 'utf8') =>
  v === null ? Buffer.from('\\N') : Buffer.from(v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r'), encoding);

/** Rows of `replay_chunks` as ClickHouse's migration 0009 keeps them (`keep` as its writer computes it). */
function chunkRow(r: Record<string, unknown>): Buffer {
  const receivedMs = Number(r.received_ms);
  const second = receivedMs - (((receivedMs % 1000) + 1000) % 1000);
  const keep = 2n ** 64n - 1n - BigInt(receivedMs) * 1000n;
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const fields = [
    tsvField(String(r.project_id)),
    tsvField(String(r.session_id)),
    tsvField(String(r.seq)),
    tsvField(String(r.anonymous_id)),
    tsvField(new Date(second).toISOString().slice(0, 19).replace('T', ' ')),
    tsvField(String((receivedMs - second) * 1000)),
    tsvField(text(r.first_us)),
    tsvField(text(r.last_us)),
    tsvField(String(r.event_count)),
    tsvField(String(r.raw_bytes)),
    tsvField(String(r.key_id)),
    tsvField(text(r.sdk_name)),
    tsvField(text(r.sdk_version)),
    tsvField(Buffer.from(String(r.data_hex), 'hex').toString('latin1'), 'latin1'),
    tsvField(keep.toString()),
  ];
  const parts: Buffer[] = [];
  fields.forEach((f, i) => parts.push(...(i === 0 ? [f] : [Buffer.from('\t'), f])));
  parts.push(Buffer.from('\n'));
  return Buffer.concat(parts);
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

const CHUNK_COLUMNS = 'project_id, session_id, seq, anonymous_id, received_at, received_us, first_us, last_us, event_count, raw_bytes, key_id, sdk_name, sdk_version, data, keep';
const BLOCK = 20_000;

/** The installation's recording chunks into `database.replay_chunks` of the cluster (through its first node). */
async function copyRecordings(inst: Installation, cluster: EngineCluster, database: string): Promise<number> {
  const opened = await openServices(loadConfig({ flags: { data_dir: inst.dataDir }, env: {} }), { replay: 'wait', log: createLogger('silent') });
  try {
    let copied = 0;
    for (let offset = 0; ; offset += BLOCK) {
      const rows = await opened.services.events.read(
        `SELECT project_id, session_id, seq, anonymous_id, epoch_ms(received_at) AS received_ms, epoch_us(first_ts) AS first_us, epoch_us(last_ts) AS last_us,
                event_count, raw_bytes, key_id, sdk_name, sdk_version, hex(data) AS data_hex
           FROM replay_chunks ORDER BY project_id, session_id, seq LIMIT ${BLOCK} OFFSET ${offset}`,
      );
      if (rows.length === 0) return copied;
      await post(cluster.nodes[0]!.httpPort, `INSERT INTO ${database}.replay_chunks (${CHUNK_COLUMNS}) FORMAT TabSeparated`, Buffer.concat(rows.map(chunkRow)));
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

// Loads a generated data set into ClickHouse from the same CSV files as the pp event store, through
// Null-engine tables whose materialized views map rows onto the events and identity_links tables.

import type { ClickHouse } from './clickhouse.js';
import type { DataSet } from './dataSet.js';
import { EVENT_TABLE_COLUMNS, EVENT_TABLE_ENGINE, lit } from './peerSql.js';
import { SDKS, type StoreProject } from './storeWriter.js';

const transform = (column: string, to: Array<string | number>, fallback: string) =>
  `transform(${column}, [${to.map((_, i) => i).join(', ')}], [${to.map((v) => (typeof v === 'number' ? String(v) : lit(v))).join(', ')}], ${fallback})`;

export async function createPeerSchema(ch: ClickHouse, projects: readonly StoreProject[]): Promise<void> {
  for (const t of ['events_csv_mv', 'links_csv_mv', 'events_csv', 'links_csv', 'events', 'identity_links']) await ch.query(`DROP TABLE IF EXISTS ${t}`);
  await ch.query(`CREATE TABLE events (${EVENT_TABLE_COLUMNS}) ${EVENT_TABLE_ENGINE}`);
  await ch.query('CREATE TABLE identity_links (project_id UInt32, distinct_id String, actor_id String) ENGINE = MergeTree ORDER BY (project_id, distinct_id)');
  await ch.query(`CREATE TABLE events_csv (p UInt32, uuid UUID, ts_ms UInt64, received_ms UInt64, event String, distinct_id String, anonymous_id Nullable(String),
    user_id Nullable(String), session_id Nullable(String), source String, release String, url Nullable(String), path Nullable(String), referrer Nullable(String),
    props Nullable(String), revenue Nullable(Float64), elements Nullable(String)) ENGINE = Null`);
  const browser = (v: { browser: string; server: string }) => `if(source = 'browser', ${v.browser}, ${v.server})`;
  await ch.query(`CREATE MATERIALIZED VIEW events_csv_mv TO events AS SELECT
      toUInt32(${transform(
        'p',
        projects.map((p) => p.id),
        '0',
      )}) AS project_id, uuid, toDateTime(intDiv(ts_ms, 1000)) AS ts, received_ms AS received_at,
      event, distinct_id, ifNull(anonymous_id, '') AS anonymous_id, ifNull(user_id, '') AS user_id, ifNull(session_id, '') AS session_id, source,
      ${browser({ browser: lit(SDKS.browser.name), server: lit(SDKS.server.name) })} AS sdk_name,
      ${browser({ browser: lit(SDKS.browser.version), server: lit(SDKS.server.version) })} AS sdk_version,
      ${browser({
        browser: transform(
          'p',
          projects.map((p) => p.browserKey),
          "''",
        ),
        server: transform(
          'p',
          projects.map((p) => p.serverKey),
          "''",
        ),
      })} AS key_id,
      release, ifNull(url, '') AS url, ifNull(path, '') AS path, ifNull(referrer, '') AS referrer, ifNull(props, '') AS props, revenue,
      ifNull(elements, '') AS elements, toUInt8(0) AS invalid
    FROM events_csv`);
  await ch.query('CREATE TABLE links_csv (p UInt32, distinct_id String, actor_id String, linked_ms UInt64) ENGINE = Null');
  await ch.query(`CREATE MATERIALIZED VIEW links_csv_mv TO identity_links AS
    SELECT toUInt32(${transform(
      'p',
      projects.map((p) => p.id),
      '0',
    )}) AS project_id, distinct_id, actor_id FROM links_csv`);
}

export interface PeerLoad {
  events: number;
  links: number;
  ms: number;
}

export async function loadPeer(ch: ClickHouse, ds: DataSet, projects: readonly StoreProject[]): Promise<PeerLoad> {
  const started = performance.now();
  await createPeerSchema(ch, projects);
  for (const file of ds.eventFiles) await ch.insertFile('INSERT INTO events_csv FORMAT CSV', file);
  await ch.insertFile('INSERT INTO links_csv FORMAT CSV', ds.linkFile);
  await ch.settle();
  const [[events]] = (await ch.query('SELECT count() FROM events')).rows as [[string]];
  const [[links]] = (await ch.query('SELECT count() FROM identity_links')).rows as [[string]];
  return { events: Number(events), links: Number(links), ms: Math.round(performance.now() - started) };
}

/** Compressed bytes of the active parts of a table. */
export async function peerTableBytes(ch: ClickHouse, table: string): Promise<number> {
  const [[bytes]] = (await ch.query(`SELECT sum(bytes) FROM system.parts WHERE active AND database = currentDatabase() AND table = ${lit(table)}`)).rows as [[string]];
  return Number(bytes);
}

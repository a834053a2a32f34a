// Loads a generated data set straight into an installation's event store (the migrations' own
// `events` and `identity_links` tables) while no server holds it, laid out by receipt time as
// ingestion leaves it. Columns are derived as ingestion derives them.
//
// DuckDB's CSV reader is used rather than an Appender fed from JavaScript: measured on this
// machine, appending row by row costs ~15 µs of JavaScript per 23-column row (minutes at 10M
// events), while the reader parses in parallel in native code.

import { INTEGER, VARCHAR, type DuckDBConnection } from '@duckdb/node-api';
import { NULL, type DataSet } from './dataSet.js';
import { ELEMENT_COLUMNS, elementColumnsSql } from '../../server/ingest/elementColumns.js';

export interface StoreProject {
  id: number;
  /** Public ids of the browser and server ingestion keys the events are attributed to. */
  browserKey: string;
  serverKey: string;
}

export const SDKS = {
  browser: { name: 'pp-browser', version: '1.4.2' },
  server: { name: 'pp-node', version: '0.3.1' },
} as const;

const CSV_TYPES = `{'p': 'INTEGER', 'uuid': 'UUID', 'ts_ms': 'BIGINT', 'received_ms': 'BIGINT', 'event': 'VARCHAR', 'distinct_id': 'VARCHAR',
  'anonymous_id': 'VARCHAR', 'user_id': 'VARCHAR', 'session_id': 'VARCHAR', 'source': 'VARCHAR', 'release': 'VARCHAR', 'url': 'VARCHAR', 'path': 'VARCHAR',
  'referrer': 'VARCHAR', 'props': 'JSON', 'revenue': 'DOUBLE', 'elements': 'JSON'}`;

export const csvOptions = (columns: string) => `header = false, nullstr = '${NULL}', quote = '"', escape = '"', columns = ${columns}`;

/** A file path inside a SQL string literal (paths are the bench's own, but quote them properly). */
export const sqlPath = (file: string) => file.replaceAll("'", "''");

export interface LoadStats {
  events: number;
  links: number;
  ms: number;
}

/** A VALUES list mapping project index to (id, browser key, server key), every value bound. */
function projectMap(projects: readonly StoreProject[]): { sql: string; params: Array<string | number>; types: Array<typeof INTEGER | typeof VARCHAR> } {
  const params: Array<string | number> = [];
  const types: Array<typeof INTEGER | typeof VARCHAR> = [];
  const rows = projects.map((p, i) => {
    params.push(i, p.id, p.browserKey, p.serverKey);
    types.push(INTEGER, INTEGER, VARCHAR, VARCHAR);
    const n = params.length;
    return `($${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
  });
  return { sql: `(VALUES ${rows.join(', ')}) AS m(idx, project_id, browser_key, server_key)`, params, types };
}

export async function loadEventStore(conn: DuckDBConnection, ds: DataSet, projects: readonly StoreProject[]): Promise<LoadStats> {
  const started = performance.now();
  const map = projectMap(projects);
  // One statement for every week: one sort, and row groups written once (separate inserts leave
  // rewritten blocks behind as free space in the file).
  await conn.run(`SET memory_limit = '3GB'`);
  const files = ds.eventFiles.map((f) => `'${sqlPath(f)}'`).join(', ');
  await conn.run(
    `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, distinct_key, anonymous_id, user_id, session_id, source, sdk_name, sdk_version, key_id,
         release, url, path, referrer, props, revenue, elements, invalid, ${ELEMENT_COLUMNS.join(', ')})
       SELECT m.project_id, s.uuid, epoch_ms(s.ts_ms)::TIMESTAMPTZ, epoch_ms(s.received_ms)::TIMESTAMPTZ, s.event, s.distinct_id, md5_number_lower(s.distinct_id),
         s.anonymous_id, s.user_id,
         s.session_id, s.source,
         CASE s.source WHEN 'browser' THEN '${SDKS.browser.name}' ELSE '${SDKS.server.name}' END,
         CASE s.source WHEN 'browser' THEN '${SDKS.browser.version}' ELSE '${SDKS.server.version}' END,
         CASE s.source WHEN 'browser' THEN m.browser_key ELSE m.server_key END,
         s.release, s.url, s.path, s.referrer, s.props, s.revenue, s.elements, false,
         -- the element columns ingestion fills for clicks and form submits
         ${elementColumnsSql('s.event', 's.elements').join(', ')}
       FROM read_csv([${files}], ${csvOptions(CSV_TYPES)}) s JOIN ${map.sql} ON m.idx = s.p
       ORDER BY s.received_ms`,
    map.params,
    map.types,
  );
  await conn.run(
    `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
     SELECT m.project_id, s.distinct_id, s.actor_id, epoch_ms(s.linked_ms)::TIMESTAMPTZ, md5_number_lower(s.distinct_id), md5_number_lower(s.actor_id)
     FROM read_csv('${sqlPath(ds.linkFile)}', ${csvOptions(`{'p': 'INTEGER', 'distinct_id': 'VARCHAR', 'actor_id': 'VARCHAR', 'linked_ms': 'BIGINT'}`)}) s
     JOIN ${map.sql} ON m.idx = s.p`,
    map.params,
    map.types,
  );
  await conn.run('CHECKPOINT');
  const [row] = (await conn.runAndReadAll('SELECT (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM identity_links) AS l')).getRowObjects();
  return { events: Number(row!.e), links: Number(row!.l), ms: Math.round(performance.now() - started) };
}

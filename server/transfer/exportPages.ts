// Writing an export an engine answers as pages (engine/duckdb/exportSql.ts, `PagedExport`: ClickHouse's).
// The pages are read in the order of (event time, uuid), each a keyset read of one window of event
// time under the engine's time limit, and appended to a DuckDB database of the export's own beside
// the file (`export-<id>.<format>.staging`, removed at the end); DuckDB then writes the file with the very
// statement of a DuckDB export, so every field has the same bytes as there, in NDJSON, CSV or
// Parquet. Memory stays flat whatever the size: one page of rows at a time in the server, DuckDB's
// own limited to STAGING_MEMORY (the rest of the rows on disk).
//
// The windows: the rows of the selection are counted per day (copies not yet merged included, so
// a count is never short); consecutive days make a window while their rows fit a page, and a day
// holding more is counted again per hour, an hour per minute, a minute per second. A second
// holding more than a page is read in several pages, each after the last row of the one before.

import { rmSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { exportEventsSql, type ExportCursor, type ExportFormat, type ExportWindow, type PagedExport, type PagedExportRow } from '../engine/duckdb/exportSql.js';
import { TableAppender } from '../engine/duckdb/tableAppender.js';
import type { Statement } from '../engine/engine.js';

/** Rows per page read (and per window, where the seconds allow). */
export const PAGE_ROWS = 10_000;
/** The staging database's memory (DuckDB's own; what does not fit goes to its file and temp folder). */
const STAGING_MEMORY = '256MB';

/** The buckets the windows are cut from, coarsest first: a day, an hour, a minute, a second. */
const BUCKETS = [86_400, 3_600, 60, 1] as const;

/** The columns of DuckDB's `events` an export writes (migrations/duckdb), with the project: the staging table. */
const STAGING_TABLE = `CREATE TABLE events (
  project_id INTEGER NOT NULL, uuid UUID NOT NULL, ts TIMESTAMPTZ NOT NULL, received_at TIMESTAMPTZ NOT NULL, event VARCHAR NOT NULL,
  distinct_id VARCHAR NOT NULL, anonymous_id VARCHAR, user_id VARCHAR, session_id VARCHAR, source VARCHAR NOT NULL, sdk_name VARCHAR,
  sdk_version VARCHAR, key_id VARCHAR, release VARCHAR, url VARCHAR, path VARCHAR, referrer VARCHAR, props JSON, revenue DOUBLE,
  elements JSON, invalid BOOLEAN NOT NULL, invalid_reasons VARCHAR[], rule_id BIGINT, source_uuid UUID)`;

export interface PagedRun {
  projectId: number;
  format: ExportFormat;
  /** The file written. */
  file: string;
  /** Reads one statement under the engine's time limit. */
  read: (statement: Statement) => Promise<Array<Record<string, unknown>>>;
  /** Rows per page (PAGE_ROWS unless given). */
  pageRows?: number;
  /** Hears the rows staged so far after each page; throws to stop the export (a cancellation). */
  progress: (rows: number) => void;
}

/** The windows of the selection in order, each holding at most a page of rows or a single second. */
async function* windowsOf(plan: PagedExport, read: PagedRun['read'], pageRows: number, window: ExportWindow, level = 0): AsyncGenerator<ExportWindow> {
  if (window.from >= window.to) return;
  const seconds = BUCKETS[level]!;
  let open: { from: number; to: number; rows: number } | undefined;
  for (const r of await read(plan.countsSql(window, seconds))) {
    const bucket = { from: Math.max(window.from, Number(r.bucket)), to: Math.min(window.to, Number(r.bucket) + seconds) };
    const rows = Number(r.n);
    if (open && open.rows + rows > pageRows) {
      yield { from: open.from, to: open.to };
      open = undefined;
    }
    if (rows > pageRows && level + 1 < BUCKETS.length) {
      yield* windowsOf(plan, read, pageRows, bucket, level + 1);
    } else if (open) {
      open.to = bucket.to;
      open.rows += rows;
    } else {
      open = { ...bucket, rows };
    }
  }
  if (open) yield { from: open.from, to: open.to };
}

/** A row of a page as the staging table's record. */
function stagedRecord(projectId: number, r: PagedExportRow): Record<string, unknown> {
  return {
    project_id: projectId,
    uuid: r.uuid_text,
    ts: instant(r.ts_micros),
    received_at: instant(r.received_micros),
    event: r.event,
    distinct_id: r.distinct_id,
    anonymous_id: r.anonymous_id,
    user_id: r.user_id,
    session_id: r.session_id,
    source: r.source,
    sdk_name: r.sdk_name,
    sdk_version: r.sdk_version,
    key_id: r.key_text,
    release: r.release,
    url: r.url,
    path: r.path,
    referrer: r.referrer,
    props: r.props,
    revenue: r.revenue,
    elements: r.elements,
    invalid: Number(r.invalid) === 1,
    invalid_reasons: r.invalid_reasons,
    rule_id: r.rule_text === null ? null : BigInt(r.rule_text),
    source_uuid: r.source_text,
  };
}

/** Stored instants are whole milliseconds (rows.ts: a Date), as DuckDB's appender stores them. */
function instant(micros: string): Date {
  return new Date(Number(BigInt(micros) / 1000n));
}

/** The staging database of the export writing `file`: its file and its write-ahead log. */
export function stagingFiles(file: string): [string, string] {
  return [`${file}.staging`, `${file}.staging.wal`];
}

/** Writes the export; answers the events written. */
export async function writePagedExport(plan: PagedExport, run: PagedRun): Promise<number> {
  const removeStaging = () => {
    for (const f of stagingFiles(run.file)) rmSync(f, { force: true });
    // Where DuckDB spills what does not fit its memory (it removes the folder itself when it closes).
    rmSync(`${stagingFiles(run.file)[0]}.tmp`, { recursive: true, force: true });
  };
  const pageRows = run.pageRows ?? PAGE_ROWS;
  removeStaging();
  const instance = await DuckDBInstance.create(stagingFiles(run.file)[0], {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'true',
    threads: '1',
    memory_limit: STAGING_MEMORY,
    preserve_insertion_order: 'true',
  });
  const conn = await instance.connect();
  try {
    // Times are written as UTC text, as the event engine's connections write them.
    await conn.run("SET TimeZone = 'UTC'");
    await conn.run(STAGING_TABLE);
    const appender = await TableAppender.open(conn, 'events');
    let staged = 0;
    try {
      for await (const window of windowsOf(plan, run.read, pageRows, plan.window)) {
        let after: ExportCursor | null = null;
        for (;;) {
          const rows = (await run.read(plan.pageSql(window, after, pageRows))) as unknown as PagedExportRow[];
          for (const r of rows) appender.append(stagedRecord(run.projectId, r));
          await appender.flush();
          staged += rows.length;
          run.progress(staged);
          if (rows.length < pageRows) break;
          const last = rows[rows.length - 1]!;
          after = { us: last.ts_micros, uuid: last.uuid_text };
        }
      }
    } finally {
      appender.close();
    }
    const copy = exportEventsSql({ projectId: run.projectId, timezone: 'UTC', from: null, to: null, format: run.format, file: run.file });
    const written = await conn.runAndReadAll(copy.sql);
    return Number(Object.values(written.getRowObjects()[0] ?? {})[0] ?? 0);
  } finally {
    conn.closeSync();
    instance.closeSync();
    removeStaging();
  }
}

// How DuckDB stores what ingestion appends (engine.ts, `EventAppender`): the rows through a
// TableAppender per table, kept open on the writer connection from one batch to the next (opening
// one reads the table's columns), inside one explicit transaction with the journal position. The
// appends then only move rows into the transaction; the COMMIT (write-ahead log and fsync) runs off
// the JavaScript thread. The reads of deduplication and of the journal position are here too.

import { BIGINT, INTEGER, LIST, TIMESTAMPTZ, VARCHAR, listValue, timestampTZValue, type DuckDBConnection } from '@duckdb/node-api';
import type { AppendBatch, EngineConnection, EventAppender, KeyChunk } from '../engine.js';
import { duckDb } from './connection.js';
import { TableAppender } from './tableAppender.js';

export class DuckDbAppender implements EventAppender {
  private readonly tables = new Map<string, TableAppender>();

  async append(conn: EngineConnection, batch: AppendBatch): Promise<void> {
    const db = duckDb(conn);
    await db.run('BEGIN TRANSACTION');
    try {
      for (const [table, rows] of [
        ['events', batch.events],
        ['ingest_rejections', batch.rejections],
      ] as const) {
        if (rows.length === 0) continue;
        const appender = await this.appender(db, table);
        for (const row of rows) appender.append(row);
        await appender.flush();
      }
      if (batch.journalPosition !== undefined) await db.run('UPDATE ingest_journal SET position = $1', [BigInt(batch.journalPosition)], [BIGINT]);
      await db.run('COMMIT');
    } catch (err) {
      this.discard();
      await db.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  async journalPosition(conn: EngineConnection): Promise<number> {
    const reader = await duckDb(conn).runAndReadAll('SELECT position FROM ingest_journal');
    return Number(reader.getRowObjects()[0]?.position ?? 0);
  }

  async storedPairs(conn: EngineConnection, uuids: readonly string[], fromUs: number, beforeUs: number): Promise<string[]> {
    if (uuids.length === 0) return [];
    const bounded = Number.isFinite(beforeUs);
    const reader = await duckDb(conn).runAndReadAll(
      `SELECT project_id, uuid::VARCHAR AS uuid FROM events
          WHERE received_at >= $1 ${bounded ? 'AND received_at < $3' : ''} AND uuid IN (SELECT unnest($2::VARCHAR[])::UUID)`,
      [timestampTZValue(BigInt(fromUs)), listValue(uuids), ...(bounded ? [timestampTZValue(BigInt(beforeUs))] : [])],
      [TIMESTAMPTZ, LIST(VARCHAR), ...(bounded ? [TIMESTAMPTZ] : [])],
    );
    return reader.getRowObjects().map((r) => `${Number(r.project_id)}/${String(r.uuid)}`);
  }

  /** Streamed, the uuid split into words in SQL: no strings are made for the pairs. */
  async recentKeys(conn: EngineConnection, sinceUs: number, limit: number, take: (chunk: KeyChunk) => void): Promise<void> {
    const word = (from: number, to: number) => `('0x' || u[${from}:${to}])::UINTEGER`;
    const result = await duckDb(conn).stream(
      `WITH recent AS (
           SELECT project_id, replace(uuid::VARCHAR, '-', '') AS u, epoch_us(received_at) AS us FROM events
            WHERE received_at >= $1 ORDER BY received_at DESC LIMIT $2)
         SELECT project_id, ${word(1, 8)}, ${word(9, 16)}, ${word(17, 24)}, ${word(25, 32)}, us FROM recent ORDER BY us`,
      [timestampTZValue(BigInt(sinceUs)), limit],
      [TIMESTAMPTZ, INTEGER],
    );
    for (let chunk = await result.fetchChunk(); chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      const [projects, w0, w1, w2, w3, us] = chunk.getColumns() as [number[], number[], number[], number[], number[], bigint[]];
      take({ count: chunk.rowCount, projects, words: [w0, w1, w2, w3], receivedUs: us.map(Number) });
    }
  }

  async heldUuids(conn: EngineConnection, projectId: number, uuids: readonly string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    // Imported uuids are mostly time-ordered (PostHog's) or new to the project: when it holds none
    // between the smallest and the largest (canonical text sorts as DuckDB sorts uuids), which the
    // row groups' minimum and maximum mostly answer, the join over all its events is spared.
    let low = uuids[0]!;
    let high = low;
    for (const u of uuids) {
      if (u < low) low = u;
      else if (u > high) high = u;
    }
    const near = await duckDb(conn).runAndReadAll('SELECT count(*) AS n FROM events WHERE project_id = $1 AND uuid BETWEEN $2::UUID AND $3::UUID', [projectId, low, high], [INTEGER, VARCHAR, VARCHAR]);
    if (Number(near.getRowObjects()[0]!.n) === 0) return new Set();
    // The uuids go as one text, split in SQL.
    const reader = await duckDb(conn).runAndReadAll(
      `SELECT uuid::VARCHAR AS uuid FROM events WHERE project_id = $1 AND uuid IN (SELECT unnest(string_split($2, ','))::UUID)`,
      [projectId, uuids.join(',')],
      [INTEGER, VARCHAR],
    );
    return new Set(reader.getRowObjects().map((r) => String(r.uuid)));
  }

  /** Closes the table appenders (the engine, before its writer connection). */
  close(): void {
    for (const a of this.tables.values()) a.close();
    this.tables.clear();
  }

  private async appender(conn: DuckDBConnection, table: string): Promise<TableAppender> {
    let a = this.tables.get(table);
    if (!a) {
      a = await TableAppender.open(conn, table);
      this.tables.set(table, a);
    }
    return a;
  }

  /** After a failure: the appenders' unflushed rows go with them, and the next batch opens new ones. */
  private discard(): void {
    for (const a of this.tables.values()) {
      try {
        a.discard();
      } catch {
        // closed already
      }
    }
    this.tables.clear();
  }
}

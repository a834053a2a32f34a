// A DuckDB Appender that appends records by column name. It reads the table's columns when
// opened, so a column added by a later migration gets its default instead of shifting the rest.
// Values must already be valid: the appender does not check JSON.

import { LIST, VARCHAR, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api';

export type CellValue = string | number | boolean | Date | Uint8Array | string[] | null | undefined;

type Writer = (appender: DuckDBAppender, value: Exclude<CellValue, null | undefined>) => void;

const VARCHAR_LIST = LIST(VARCHAR);

function writerFor(dataType: string): Writer {
  switch (dataType) {
    case 'INTEGER':
      return (a, v) => a.appendInteger(v as number);
    case 'BIGINT':
      return (a, v) => a.appendBigInt(BigInt(v as number));
    case 'DOUBLE':
      return (a, v) => a.appendDouble(v as number);
    case 'BOOLEAN':
      return (a, v) => a.appendBoolean(v as boolean);
    // Appending the ISO text (which DuckDB casts) costs a fraction of building a timestamp value.
    case 'TIMESTAMP WITH TIME ZONE':
      return (a, v) => a.appendVarchar((v as Date).toISOString());
    case 'BLOB':
      return (a, v) => a.appendBlob(v as Uint8Array);
    case 'VARCHAR[]':
      return (a, v) => a.appendList(v as string[], VARCHAR_LIST);
    // VARCHAR, JSON and UUID take their text form; DuckDB casts UUIDs from it.
    default:
      return (a, v) => a.appendVarchar(String(v));
  }
}

export class TableAppender {
  private constructor(
    private readonly appender: DuckDBAppender,
    private readonly columns: ReadonlyArray<{ name: string; write: Writer }>,
  ) {}

  static async open(conn: DuckDBConnection, table: string): Promise<TableAppender> {
    const reader = await conn.runAndReadAll(
      `SELECT column_name, data_type FROM duckdb_columns() WHERE schema_name = 'main' AND table_name = $1 ORDER BY column_index`,
      [table],
    );
    const columns = reader.getRowObjects().map((r) => ({ name: String(r.column_name), write: writerFor(String(r.data_type)) }));
    if (columns.length === 0) throw new Error(`table ${table} does not exist`);
    return new TableAppender(await conn.createAppender(table), columns);
  }

  /**
   * Appends one row. A column the record does not name gets its default (NULL unless declared);
   * properties that are not columns are ignored.
   */
  append(record: object): void {
    for (const c of this.columns) {
      const v = (record as Record<string, CellValue>)[c.name];
      if (v === undefined) this.appender.appendDefault();
      else if (v === null) this.appender.appendNull();
      else c.write(this.appender, v);
    }
    this.appender.endRow();
  }

  /** Writes the appended rows in one transaction (the connection is in autocommit mode). */
  flush(): void {
    this.appender.flushSync();
  }

  /** Drops rows not yet flushed (after a failure), then closes. */
  discard(): void {
    try {
      this.appender.clear();
    } finally {
      this.appender.closeSync();
    }
  }

  close(): void {
    this.appender.closeSync();
  }
}

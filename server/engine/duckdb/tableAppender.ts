// A DuckDB Appender that appends records by column name, a DataChunk (up to 2048 rows) at a time:
// numbers, times and uuids go into typed vectors copied in one call, instead of one native call
// (and a cast from text) per cell. It reads the table's columns when opened, so a column added by
// a later migration gets its default instead of shifting the rest. Values must already be valid:
// the appender does not check JSON.

import { DuckDBDataChunk, DuckDBTimestampTZValue, DuckDBUUIDValue, listValue, type DuckDBAppender, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';

/** Rows put in a chunk between two turns of the event loop (at most DuckDB's vector size, 2048). */
const STEP_ROWS = 512;

export type CellValue = string | number | bigint | boolean | Date | Uint8Array | Array<string | number | null> | null | undefined;

type Convert = (value: Exclude<CellValue, null | undefined>) => DuckDBValue;

const CANONICAL_UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

/** DuckDB's storage form of a uuid; the text must be canonical (lower case, 8-4-4-4-12). */
function uuidValue(text: string): DuckDBUUIDValue {
  const m = CANONICAL_UUID.exec(text);
  if (!m) throw new Error(`not a canonical uuid: ${JSON.stringify(text.slice(0, 64))}`);
  return DuckDBUUIDValue.fromUint128(BigInt(`0x${m[1]}${m[2]}${m[3]}${m[4]}${m[5]}`));
}

function converterFor(dataType: string): Convert {
  switch (dataType) {
    case 'INTEGER':
    case 'DOUBLE':
    case 'BOOLEAN':
      return (v) => v as number | boolean;
    case 'BIGINT':
    case 'UBIGINT':
      return (v) => BigInt(v as number | bigint);
    case 'TIMESTAMP WITH TIME ZONE':
      return (v) => new DuckDBTimestampTZValue(BigInt((v as Date).getTime()) * 1000n);
    case 'UUID':
      return (v) => uuidValue(v as string);
    case 'VARCHAR[]':
    case 'INTEGER[]':
      return (v) => listValue(v as Array<string | number | null>);
    case 'VARCHAR':
    case 'JSON':
      return (v) => String(v);
    default:
      throw new Error(`no appender conversion for ${dataType}`);
  }
}

/** A literal default, possibly cast (`CAST('f' AS BOOLEAN)`): the same for every row, so read once. */
const CONSTANT_DEFAULT = /^(?:CAST\('(?:[^']|'')*' AS [A-Z0-9_ ]+\)|'(?:[^']|'')*'|-?\d+(?:\.\d+)?|true|false)$/i;

interface Column {
  name: string;
  convert: Convert;
  /** What an absent value becomes: the declared default, NULL without one; undefined when not constant. */
  absent: DuckDBValue | undefined;
}

export class TableAppender {
  private rows: object[] = [];

  private constructor(
    private readonly appender: DuckDBAppender,
    private readonly columns: readonly Column[],
    private readonly types: readonly DuckDBType[],
  ) {}

  static async open(conn: DuckDBConnection, table: string): Promise<TableAppender> {
    const reader = await conn.runAndReadAll(
      `SELECT column_name, data_type, column_default FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 ORDER BY column_index`,
      [table],
    );
    const columns: Column[] = [];
    for (const r of reader.getRowObjects()) {
      const declared = r.column_default === null ? null : String(r.column_default);
      let absent: DuckDBValue | undefined = null;
      if (declared !== null) {
        absent = CONSTANT_DEFAULT.test(declared) ? (await conn.runAndReadAll(`SELECT ${declared} AS v`)).getRowObjects()[0]!.v! : undefined;
      }
      columns.push({ name: String(r.column_name), convert: converterFor(String(r.data_type)), absent });
    }
    if (columns.length === 0) throw new Error(`table ${table} does not exist`);
    const appender = await conn.createAppender(table);
    const types = columns.map((_, i) => appender.columnType(i));
    return new TableAppender(appender, columns, types);
  }

  /**
   * Buffers one row until `flush`. A column the record does not name gets its default (NULL unless
   * declared); properties that are not columns are ignored.
   */
  append(record: object): void {
    this.rows.push(record);
  }

  /**
   * Writes the buffered rows (in one transaction unless one is open on the connection). Building
   * the chunks gives the event loop a turn after each one, so that a large group does not hold up
   * the requests being read meanwhile; the chunks then go to the table in one flush, because each
   * flush costs about a millisecond on top of its rows. Nothing else may use the connection until
   * it resolves.
   */
  async flush(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    for (let start = 0; start < rows.length; start += STEP_ROWS) {
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      this.appendChunk(rows, start, Math.min(STEP_ROWS, rows.length - start));
    }
    if (rows.length > 0) this.appender.flushSync();
  }

  private appendChunk(rows: object[], start: number, count: number): void {
    const chunk = DuckDBDataChunk.create(this.types, count);
    this.columns.forEach((c, ci) => {
      const vector = chunk.getColumnVector(ci);
      for (let i = 0; i < count; i++) {
        const v = (rows[start + i] as Record<string, CellValue>)[c.name];
        if (v !== undefined) vector.setItem(i, v === null ? null : c.convert(v));
        else if (c.absent !== undefined) vector.setItem(i, c.absent);
        else throw new Error(`column ${c.name} has a default that is not a constant; name it in every record`);
      }
      vector.flush();
    });
    this.appender.appendDataChunk(chunk);
  }

  /** Drops rows not yet flushed (after a failure), then closes. */
  discard(): void {
    this.rows = [];
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

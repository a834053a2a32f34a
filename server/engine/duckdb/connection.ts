// The DuckDB connection behind the engine's opaque `EngineConnection`: the engine hands its
// connections out as such, and DuckDB's builders, jobs and appender take them back here.

import type { DuckDBConnection } from '@duckdb/node-api';
import type { EngineConnection } from '../engine.js';

/** A DuckDB connection as the rest of the server holds it. */
export function engineConnection(conn: DuckDBConnection): EngineConnection {
  return conn as unknown as EngineConnection;
}

/** The DuckDB connection a turn of this engine handed out. */
export function duckDb(conn: EngineConnection): DuckDBConnection {
  return conn as unknown as DuckDBConnection;
}

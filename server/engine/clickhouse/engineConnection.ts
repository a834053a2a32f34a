// The ClickHouse connection behind the engine's opaque `EngineConnection`: what a writer turn of
// the ClickHouse engine hands out, and what its appender and builders take back here.

import type { EngineConnection } from '../engine.js';
import type { ClickHouseConnection } from './connection.js';

/** A ClickHouse connection as the rest of the server holds it. */
export function engineConnection(conn: ClickHouseConnection): EngineConnection {
  return conn as unknown as EngineConnection;
}

/** The ClickHouse connection a turn of this engine handed out. */
export function clickHouse(conn: EngineConnection): ClickHouseConnection {
  return conn as unknown as ClickHouseConnection;
}

// The ClickHouse statements of the installation's figures (ppctl data.stats, the shapes of
// engine/duckdb/adminSql.ts).

import type { Statement } from '../engine.js';

/**
 * How far the per-day rollups trail the stored events (`behind`) and which property keys they hold
 * (`keys`). ClickHouse keeps no rollups: every answer reads the events themselves, so nothing
 * trails them (0) and no rollup holds a key (an empty list).
 */
export function rollupStatusSql(): Statement {
  return { sql: 'SELECT toInt64(0) AS behind, emptyArrayString() AS keys', params: [] };
}

// The DuckDB statements of the installation's figures (ppctl data.stats).

import type { Statement } from '../engine.js';

/**
 * How far the per-day rollups trail the stored events (`behind`, see engine/rollups/actorDayFolder.ts)
 * and which property keys they hold (`keys`, a list).
 */
export function rollupStatusSql(): Statement {
  return {
    sql: `SELECT (SELECT coalesce(max(rowid), -1) FROM events) - through_rowid AS behind,
    (SELECT coalesce(list(key ORDER BY key), []) FROM property_day_keys) AS keys FROM actor_day_state`,
    params: [],
  };
}

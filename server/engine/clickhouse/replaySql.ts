// The ClickHouse statements of recordings. This engine keeps none yet (a recording chunk answers
// 501 engine_unsupported), so no project has any: the recordings sweep, queued when a project is
// deleted, finds nothing to delete instead of failing. Every other recordings statement answers 501
// (statements.ts).

import type { Statement } from '../engine.js';

/** The projects holding recordings: none. */
export function recordedProjectsSql(): Statement {
  return { sql: 'SELECT toUInt32(0) AS project_id WHERE 0', params: [] };
}

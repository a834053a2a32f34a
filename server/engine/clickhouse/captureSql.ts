// Element captures of the picker on ClickHouse (the shapes of ../duckdb/ingestSql.ts's storeCapture
// and captureSql), in element_captures (migration 0007), which every node holds whole. A capture
// replaces the one stored under the same token: each row is written with a larger `version` than
// any this connection wrote or read before (versionClock.ts), and reads keep the largest (FINAL).

import type { EngineConnection, Statement } from '../engine.js';
import type { CaptureRow } from '../duckdb/ingestSql.js';
import { clickHouse } from './engineConnection.js';
import { dateTimeText, literal, tuple } from './literal.js';
import { nextVersions, quorumSettings } from './versionClock.js';

/** Stores (or replaces) the capture under its picker token. */
export async function storeCapture(conn: EngineConnection, c: CaptureRow): Promise<void> {
  const ch = clickHouse(conn);
  const ms = c.receivedAt.getTime();
  const [version] = await nextVersions(ch, c.receivedAt, 1);
  const row = tuple([c.tokenHash, c.projectId, c.keyId, c.nonce, c.url, c.selector, c.element, c.chain, dateTimeText(c.receivedAt), (((ms % 1000) + 1000) % 1000) * 1000, version!]);
  await ch.command(`INSERT INTO element_captures (token_hash, project_id, key_id, nonce, url, selector, element, chain, received_at, received_us, version) VALUES ${row}`, {
    settings: await quorumSettings(ch),
  });
}

/** The capture stored under a picker token for a project (`received_at` as RFC 3339 text, in ms). */
export function captureSql(projectId: number, tokenHash: string): Statement {
  // The token's latest row first (FINAL on the key), then its project: a condition on another
  // column could be applied before the rows of one key are merged.
  return {
    sql: `SELECT project_id, nonce, url, selector, element, chain,
        concat(formatDateTime(received_at, '%Y-%m-%dT%H:%M:%S', 'UTC'), '.', substring(toString(1000 + intDiv(received_us, 1000)), 2), 'Z') AS received_at
      FROM (SELECT * FROM element_captures FINAL WHERE token_hash = ${literal(tokenHash)}) WHERE project_id = ${literal(projectId)}`,
    params: [],
  };
}

// Element captures of the picker on ClickHouse (the shapes of ../duckdb/ingestSql.ts's storeCapture
// and captureSql), in element_captures (migration 0007), which every node holds whole. A capture
// replaces the one stored under the same token: each row is written with a larger `version` than
// any this connection wrote or read before, and reads keep the largest (FINAL).

import type { EngineConnection, Statement } from '../engine.js';
import type { CaptureRow } from '../duckdb/ingestSql.js';
import { QUORUM_WRITE, type ClickHouseConnection } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { dateTimeText, literal, sql, tuple } from './literal.js';

interface CaptureState {
  lastVersion: bigint;
  settings: Record<string, number>;
}

const states = new WeakMap<ClickHouseConnection, Promise<CaptureState>>();

async function readState(ch: ClickHouseConnection): Promise<CaptureState> {
  const [row] = await ch.query<{ v: string }>('SELECT toString(max(version)) AS v FROM element_captures');
  let hosts = 1;
  if (ch.cluster !== undefined) {
    const [shape] = await ch.query<{ n: string }>(sql`SELECT count() AS n FROM system.clusters WHERE cluster = ${ch.cluster}`);
    hosts = Number(shape?.n ?? 1);
  }
  // An answer means two nodes hold the row, as with the identity links.
  return { lastVersion: BigInt(row?.v ?? '0'), settings: hosts > 1 ? { ...QUORUM_WRITE } : {} };
}

function stateOf(ch: ClickHouseConnection): Promise<CaptureState> {
  const known = states.get(ch);
  if (known) return known;
  const state = readState(ch);
  states.set(ch, state);
  state.catch(() => states.delete(ch));
  return state;
}

/** Stores (or replaces) the capture under its picker token. */
export async function storeCapture(conn: EngineConnection, c: CaptureRow): Promise<void> {
  const ch = clickHouse(conn);
  const state = await stateOf(ch);
  const ms = c.receivedAt.getTime();
  const now = BigInt(ms) * 1000n;
  state.lastVersion = state.lastVersion + 1n > now ? state.lastVersion + 1n : now;
  const row = tuple([c.tokenHash, c.projectId, c.keyId, c.nonce, c.url, c.selector, c.element, c.chain, dateTimeText(c.receivedAt), (((ms % 1000) + 1000) % 1000) * 1000, state.lastVersion]);
  await ch.command(`INSERT INTO element_captures (token_hash, project_id, key_id, nonce, url, selector, element, chain, received_at, received_us, version) VALUES ${row}`, {
    settings: state.settings,
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

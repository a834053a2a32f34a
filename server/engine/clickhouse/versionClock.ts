// What a connection's INSERTs of rows kept by version need beyond their statements: the next
// versions, and the quorum to write with. ClickHouse updates nothing in place: a row changed is a
// new row of a larger `version`, and reads keep the row of the largest one (identity links, traits,
// element captures). Versions come from one clock per connection: the next is the larger of the
// last one handed out plus one and the write's time in µs, and the last one is first read from
// every table written with it, so a version grows with every write of a key, within one
// microsecond, when the clock steps back, and across restarts. (Two servers writing to one
// installation would each keep their own clock; pp runs one writer per installation.)

import { QUORUM_WRITE, type ClickHouseConnection } from './connection.js';
import { topologyOf } from './migrations.js';

/** The tables whose rows carry a version from this clock. */
const VERSIONED = ['identity_links', 'actor_traits', 'element_captures'] as const;

interface ClockState {
  lastVersion: bigint;
}

const clocks = new WeakMap<ClickHouseConnection, Promise<ClockState>>();
const quorums = new WeakMap<ClickHouseConnection, Promise<Record<string, number>>>();

/** `read(ch)` once per connection; a failed read is tried again at the next call. */
function once<T>(cache: WeakMap<ClickHouseConnection, Promise<T>>, ch: ClickHouseConnection, read: (ch: ClickHouseConnection) => Promise<T>): Promise<T> {
  const known = cache.get(ch);
  if (known) return known;
  const value = read(ch);
  cache.set(ch, value);
  value.catch(() => cache.delete(ch));
  return value;
}

async function readClock(ch: ClickHouseConnection): Promise<ClockState> {
  const largest = VERSIONED.map((table) => `SELECT max(version) AS version FROM ${table}`).join(' UNION ALL ');
  const [row] = await ch.query<{ v: string }>(`SELECT toString(max(version)) AS v FROM (${largest})`);
  return { lastVersion: BigInt(row?.v ?? '0') };
}

/**
 * The settings of an INSERT that must be held by two replicas when it answers, where the cluster's
 * shards have replicas, as events are written (clickHouseAppender.ts); shards of one replica each
 * write without a quorum.
 */
export function quorumSettings(ch: ClickHouseConnection): Promise<Record<string, number>> {
  return once(quorums, ch, async (c) => ((await topologyOf(c)).replicas > 1 ? { ...QUORUM_WRITE } : {}));
}

/** Versions for `count` rows written at `at` on `ch`, each larger than every version handed out or stored before. */
export async function nextVersions(ch: ClickHouseConnection, at: Date, count: number): Promise<bigint[]> {
  const clock = await once(clocks, ch, readClock);
  const out: bigint[] = [];
  for (let i = 0; i < count; i++) {
    const now = BigInt(at.getTime()) * 1000n;
    clock.lastVersion = clock.lastVersion + 1n > now ? clock.lastVersion + 1n : now;
    out.push(clock.lastVersion);
  }
  return out;
}

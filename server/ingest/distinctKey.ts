// The 64-bit key of a distinct id that events, identity links and the per-day rollup store next to
// the id (migration duckdb 0024): the low half of the id's md5, exactly as DuckDB's
// md5_number_lower computes it, so rows written from SQL and rows appended from here agree.

import { createHash } from 'node:crypto';

export function distinctKey(distinctId: string): bigint {
  return createHash('md5').update(distinctId, 'utf8').digest().readBigUInt64LE(8);
}

/** `distinctKey` over many rows, hashing each id once (while at most `limit` ids are held: then they are let go). */
export function distinctKeys(limit = Number.POSITIVE_INFINITY): (distinctId: string) => bigint {
  const seen = new Map<string, bigint>();
  return (id) => {
    let key = seen.get(id);
    if (key === undefined) {
      key = distinctKey(id);
      if (seen.size >= limit) seen.clear();
      seen.set(id, key);
    }
    return key;
  };
}

// Answers of analytical queries kept in memory, keyed by everything an answer depends on: the
// query and its parameters, the project, its time zone and local date, the definitions of the
// saved segments it names, and the version of the project's stored events. Any write that may
// change those events moves the version, so a cached answer is never stale; answers of older
// versions are simply never asked for again and leave as the least recently used.

import { createHash } from 'node:crypto';

export class ResultCache {
  /** Serialized answers by key, least recently used first. */
  private readonly entries = new Map<string, string>();
  private bytes = 0;

  /** `maxBytes` 0 keeps nothing. An answer over an eighth of it is not kept. */
  constructor(private readonly maxBytes: number) {}

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  get(key: string): string | undefined {
    const body = this.entries.get(key);
    if (body === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, body);
    return body;
  }

  set(key: string, body: string): void {
    const cost = costOf(body);
    if (cost > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.bytes -= costOf(old);
    }
    for (const [k, v] of this.entries) {
      if (this.bytes + cost <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= costOf(v);
    }
    this.entries.set(key, body);
    this.bytes += cost;
  }
}

/** Memory a kept answer takes: its text (two bytes a character) and its key. */
function costOf(body: string): number {
  return body.length * 2 + 64;
}

/** A fixed-length key of the parts, the same whatever order object properties came in. */
export function cacheKey(parts: unknown[]): string {
  return createHash('sha256')
    .update(JSON.stringify(parts, (_k, v: unknown) => (isPlainObject(v) ? sortedKeys(v) : v)))
    .digest('hex');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sortedKeys(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, v[k]]),
  );
}

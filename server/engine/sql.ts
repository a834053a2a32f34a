// The DuckDB SQL every statement is built from: bound parameters, dates as values, and the engine's
// text order and number types. Column names, functions and intervals come only from fixed choices;
// every value from a request is bound. The events scan is eventScan.ts's, actors identity.ts's,
// conditions conditions.ts's and the per-day rollups rollups/'s.

import type { DuckDBValue } from '@duckdb/node-api';

/** Collects bound values and hands out their positional placeholders. */
export class Binder {
  readonly values: DuckDBValue[] = [];

  bind(value: DuckDBValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A built statement: SQL text plus the values bound to its placeholders. */
export interface BuiltSql {
  sql: string;
  params: DuckDBValue[];
}

/** A `YYYY-MM-DD` value as a DATE. */
export function dateValue(b: Binder, date: string): string {
  return `CAST(${b.bind(date)} AS DATE)`;
}

const isSurrogate = (unit: number) => unit >= 0xd800 && unit <= 0xdfff;

/**
 * The order the engine sorts text in (UTF-8 bytes), for orderings finished in TypeScript; computed
 * without encoding: UTF-16 units order the
 * same way except that a surrogate (a character past U+FFFF) sorts after every other unit.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (isSurrogate(x) !== isSurrogate(y)) return isSurrogate(x) ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Stored bytes as read back: DuckDB's BLOB value (`{ bytes }`), or ClickHouse's hex text (`hex(data)`). */
export function chunkBytes(value: unknown): Uint8Array {
  return typeof value === 'string' ? Buffer.from(value, 'hex') : (value as { bytes: Uint8Array }).bytes;
}

/** DuckDB counts arrive as BigInt, sums as numbers; either may be NULL. */
export function num(value: unknown): number {
  return typeof value === 'bigint' ? Number(value) : Number(value ?? 0);
}

export function numOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

// The time limit of every read of the events domain (query_timeout_ms). The event store interrupts
// a query when the limit passes; an interrupt that lands while DuckDB is still preparing the
// statement is not seen, so a read that returns late is answered 408 all the same.

import { performance } from 'node:perf_hooks';
import type { Services } from '../http/services.js';
import type { Row, Statement } from '../engine/engine.js';
import { QueryTimeoutError } from '../ground/errors.js';

export async function withinTimeLimit<T>(services: Services, read: (timeoutMs: number) => Promise<T>): Promise<T> {
  const limit = services.config.query_timeout_ms;
  const started = performance.now();
  const result = await read(limit);
  if (performance.now() - started > limit) throw new QueryTimeoutError(limit);
  return result;
}

/** Runs a statement of the engine's own builders (engine/statements.ts) under the time limit. */
export function readEvents(services: Services, statement: Statement): Promise<Row[]> {
  return withinTimeLimit(services, (timeoutMs) => services.events.read(statement.sql, statement.params, { timeoutMs }));
}

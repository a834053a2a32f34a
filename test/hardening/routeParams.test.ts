// Every operation without a JSON body: query parameters at their maximal values, real ids in the
// path. Reads first, then bodiless actions, deletions last (the owner's own session the very last).

import t from 'tap';
import { startLoadedServer } from './loadedServer.js';
import { concretePath, createFixtures, credentialFor, sendWorstCases, servedRouteTable, type Operation, type RouteTable } from './routeTable.js';
import { maximalValue, VARIANTS, type Schema, type Variant } from './maximalValue.js';

/** Node refuses request heads over 16 KiB: a URL's query stays within this. */
const QUERY_BUDGET = 12 * 1024;
/** `filters` of the reports: at most 8192 bytes once decoded (docs/behavior.md). */
const FILTERS_BYTES = 8192;
/** Server-sent events never end: the stream's worst case is its sampling, not a request. */
const STREAMS = new Set(['/api/v1/projects/{id}/events/stream']);

function longestFilters(table: RouteTable, variant: Variant): string {
  const schema: Schema = { type: 'array', maxItems: 20, items: { $ref: '#/components/schemas/QueryFilter' } };
  const filters = maximalValue(schema, table.components, { ...variant, freeCap: 150 }, FILTERS_BYTES) as unknown[];
  while (filters.length > 1 && JSON.stringify(filters).length > FILTERS_BYTES) filters.pop();
  return JSON.stringify(filters);
}

function maximalQuery(op: Operation, table: RouteTable, variant: Variant): string {
  const strings = op.query.filter((q) => q.name !== 'filters' && (q.schema.type === 'string' || q.schema.type === undefined) && !q.schema.enum && !q.schema.format);
  const share = Math.floor(QUERY_BUDGET / Math.max(1, strings.length) / 3);
  const pairs = op.query.map((q): [string, string] => {
    if (q.name === 'filters') return [q.name, longestFilters(table, variant)];
    const schema = strings.includes(q) ? { ...q.schema, maxLength: Math.min(q.schema.maxLength ?? share, share) } : q.schema;
    return [q.name, String(maximalValue(schema, table.components, variant, QUERY_BUDGET))];
  });
  return pairs.length ? '?' + new URLSearchParams(pairs).toString() : '';
}

function order(op: Operation): number {
  if (op.method === 'GET') return 0;
  if (op.method !== 'DELETE') return 1;
  return op.path === '/api/v1/me/sessions/{sessionID}' ? 3 : 2;
}

t.test('every operation without a body: maximal query strings, real ids', async (t) => {
  const server = await startLoadedServer(t);
  const table = await servedRouteTable(server);
  const ids = await createFixtures(server);
  const spare = { ...ids, id: await server.freshProject('Deleted by the suite') };
  const operations = table.operations.filter((op) => !op.body && !STREAMS.has(op.path)).sort((a, b) => order(a) - order(b));
  t.ok(operations.length >= 60, `the document lists the operations without a body (${operations.length})`);
  for (const op of operations) {
    const at = op.method === 'DELETE' && op.path === '/api/v1/projects/{id}' ? spare : ids;
    const variants = op.query.length > 0 ? VARIANTS.slice(0, 2) : VARIANTS.slice(0, 1);
    const requests = variants.map((v) => ({
      path: concretePath(op.path, at) + maximalQuery(op, table, v),
      token: credentialFor(op, server, at),
      copies: op.query.some((q) => q.name === 'filters') ? 4 : 1,
    }));
    await sendWorstCases(t, server, op, requests);
  }
});

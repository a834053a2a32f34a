// The OpenAPI document and the mounted routes must list exactly the same operations.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';

t.test('every mounted route is documented and every documented route is mounted', async (t) => {
  const server = await startTestServer(t);
  const res = await server.request('GET', '/api/v1/openapi.json');
  t.equal(res.status, 200);
  t.equal(res.body.openapi, '3.1.0');
  t.equal(res.body.info.version, '1.0.0');

  const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
  const mounted = server.running.built.routes.mounted.map((r) => `${r.method.toUpperCase()} ${r.path}`).sort();
  t.same(mounted, documented);

  // Every route reaches express only through the route table, so the express stack agrees too.
  const stack = (server.running.built.app as unknown as { router: { stack: Array<{ route?: unknown }> } }).router.stack;
  t.equal(stack.filter((layer) => layer.route).length, mounted.length);

  for (const [path, ops] of Object.entries(res.body.paths as Record<string, Record<string, { operationId?: string; responses?: object }>>)) {
    for (const [method, op] of Object.entries(ops)) {
      t.ok(op.operationId, `${method} ${path} has an operationId`);
      t.ok(op.responses && Object.keys(op.responses).length > 0, `${method} ${path} documents responses`);
    }
  }
});

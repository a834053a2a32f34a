// Liveness on both surfaces, and readiness that notices a database that does not answer (a full
// disk: test/ingest/diskFull.test.ts).

import t from 'tap';
import { startTestServer } from '../support/testServer.js';

t.test('health', async (t) => {
  const server = await startTestServer(t);

  for (const path of ['/api/v1/health', '/v1/health']) {
    const res = await server.request('GET', path);
    t.equal(res.status, 200, path);
    t.same(res.body, { status: 'ok', version: server.running.services.version }, path);
    const ready = await server.request('GET', `${path}?ready=1`);
    t.equal(ready.status, 200, `${path} ready`);
  }

  await server.running.services.events.close();
  const down = await server.request('GET', '/api/v1/health?ready=1');
  t.equal(down.status, 503);
  t.equal(down.body.error.code, 'unavailable');
  t.same(down.body.error.details, { sqlite: 'ok', duckdb: 'unavailable', storage: 'ok' });
  const live = await server.request('GET', '/v1/health');
  t.equal(live.status, 200, 'liveness does not touch the databases');
});

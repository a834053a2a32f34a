// Every read of the events domain is limited by query_timeout_ms and answered with 408
// query_timeout past it: forced here with a 1 ms limit over enough events that no read is quicker.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { eventsTenant, ingestOk, qs } from './eventsKit.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');

t.test('reads answer 408 query_timeout past the time limit', async (t) => {
  const server = await startTestServer(t, { now: T0, settings: { query_timeout_ms: 1 } });
  const { viewer, key, project, eventsPath } = await eventsTenant(server);
  // 10,000 events with a few properties, 500 to a request, at 20 receipt times.
  for (let r = 0; r < 20; r++) {
    server.clock.set(new Date(T0.getTime() - (20 - r) * 5_000));
    await ingestOk(
      server,
      key,
      Array.from({ length: 500 }, (_, i) => ({
        event: `e${i % 200}`,
        anonymous_id: `a${(r * 500 + i) % 997}`,
        props: { plan: i % 2 ? 'pro' : 'free', n: i, when: '2026-11-01T10:00:00Z', tags: ['x', i] },
      })),
    );
  }
  server.clock.set(T0);
  const reads: Array<[string, string]> = [
    ['events list', eventsPath + qs({ limit: 500, actor_id: 'a5' })],
    ['doctor view', eventsPath + qs({ view: 'doctor', from: '2026-11-01T00:00:00Z', to: '2026-11-03T00:00:00Z', limit: 500 })],
    ['event catalog', `/api/v1/projects/${project.id}/catalog/events`],
    ['property catalog', `/api/v1/projects/${project.id}/catalog/props`],
  ];
  for (const [name, path] of reads) {
    const res = await server.request('GET', path, { token: viewer });
    t.equal(res.status, 408, name);
    t.same(res.body.error, { code: 'query_timeout', message: 'query exceeded its 1 ms time limit', details: { timeout_ms: 1 } }, name);
  }
  // The same reads succeed once the limit allows them, on the connections that were interrupted.
  server.running.services.config.query_timeout_ms = 30_000;
  for (const [name, path] of reads) t.equal((await server.request('GET', path, { token: viewer })).status, 200, name);
});

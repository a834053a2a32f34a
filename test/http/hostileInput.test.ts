// Input that once answered 500 or was stored where no query can reach it: leap-second times on
// every date-time field, event times outside the queryable range, and props or elements nested far
// deeper than the limit. Each must get a clear refusal in the envelope, and never lose the rest of
// an accepted request.

import t from 'tap';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { countRows, createIngestKey, createReleaseToken, ingestEvents } from '../support/ingest.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { TS_FIRST, TS_END } from '../../server/ingest/eventSchema.js';

const NOW = '2026-11-02T12:00:00.000Z';
const LEAP = '2016-12-31T23:59:60Z';

/** JSON text of a value nested `depth` objects deep (built as text: JSON.stringify would run out of stack). */
function nested(depth: number, leaf: string): string {
  return '{"a":'.repeat(depth) + leaf + '}'.repeat(depth);
}

function post(server: TestServer, path: string, token: string, json: string) {
  return server.request('POST', path, { token, raw: json, headers: { 'content-type': 'application/json' } });
}

t.test('hostile input', async (t) => {
  const server = await startTestServer(t, { now: new Date(NOW) });
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const key = createIngestKey(server, project);

  t.test('a leap second is refused with 422 quoting the value, on every date-time field', async (t) => {
    const keyRes = await server.request('POST', `/api/v1/projects/${project.id}/keys`, { token, body: { type: 'server', name: 'k', expires_at: '2027-06-30T23:59:60Z' } });
    t.equal(keyRes.status, 422);
    t.equal(keyRes.body.error.code, 'validation_failed');
    t.match(keyRes.body.error.message, /expires_at .*"2027-06-30T23:59:60Z"/);

    const release = createReleaseToken(server, project);
    const deploy = await server.request('POST', `/api/v1/projects/${project.id}/release-markers/deploy`, {
      token: release.value,
      headers: { 'idempotency-key': 'leap-second-1' },
      body: { release: 'v1', deployed_at: LEAP },
    });
    t.equal(deploy.status, 422);
    t.equal(deploy.body.error.code, 'validation_failed');
    t.match(deploy.body.error.message, new RegExp(`deployed_at .*"${LEAP}"`));

    for (const field of ['from', 'to']) {
      const list = await server.request('GET', `/api/v1/projects/${project.id}/events?${field}=${encodeURIComponent(LEAP)}`, { token });
      t.equal(list.status, 422, field);
      t.equal(list.body.error.code, 'validation_failed');
      t.match(list.body.error.message, new RegExp(`${field}: .*"${LEAP}"`));
    }

    const track = await ingestEvents(server, key, [{ event: 'leap', anonymous_id: 'a', ts: LEAP }]);
    t.equal(track.status, 202);
    t.same(track.body.rejected, [{ index: 0, code: 'invalid_field', message: `ts ${JSON.stringify(LEAP)} is a leap second, which is not accepted; send 23:59:59 or the next second` }]);
  });

  t.test('event times outside the queryable range are refused per event', async (t) => {
    const before = await countRows(server, 'events', project.id);
    const res = await ingestEvents(server, key, [
      { event: 'old', anonymous_id: 'a', ts: '1969-12-31T23:59:59Z' },
      { event: 'edge-low', anonymous_id: 'a', ts: new Date(TS_FIRST).toISOString() },
      { event: 'early', anonymous_id: 'a', ts: new Date(Date.parse(TS_FIRST) - 1).toISOString() },
      { event: 'far', anonymous_id: 'a', ts: '3000-01-01T00:00:00Z' },
      { event: 'edge-high', anonymous_id: 'a', ts: new Date(Date.parse(TS_END) - 1).toISOString() },
      { event: 'late', anonymous_id: 'a', ts: TS_END },
    ]);
    t.equal(res.status, 202);
    const message = `ts must be from ${TS_FIRST} and before ${TS_END}`;
    t.same(
      res.body.rejected,
      [0, 2, 3, 5].map((index) => ({ index, code: 'invalid_field', message })),
    );
    t.equal(res.body.accepted, 2);
    t.equal(await countRows(server, 'events', project.id), before + 2, 'the events inside the range are stored');
  });

  t.test('props and elements nested 10,000 levels deep are refused per event, not a 500', async (t) => {
    const before = await countRows(server, 'events', project.id);
    const events = [
      `{"event":"deep-props","anonymous_id":"a","props":${nested(10_000, '1')}}`,
      `{"event":"deep-elements","anonymous_id":"a","elements":[${nested(10_000, '"x"')}]}`,
      '{"event":"fine","anonymous_id":"a","props":{"plan":"pro"}}',
    ];
    const res = await post(server, '/v1/track', key.value, `{"events":[${events.join(',')}]}`);
    t.equal(res.status, 202);
    t.same(res.body.rejected, [
      { index: 0, code: 'invalid_field', message: 'props is nested more than 16 levels deep' },
      { index: 1, code: 'invalid_field', message: 'elements is nested more than 16 levels deep' },
    ]);
    t.equal(await countRows(server, 'events', project.id), before + 1);

    const identify = await post(server, '/v1/identify', key.value, `{"user_id":"u","anonymous_id":"a","traits":${nested(10_000, '1')}}`);
    t.equal(identify.status, 422);
    t.equal(identify.body.error.message, 'traits is nested more than 16 levels deep');
  });
});

// Numeric ids over HTTP: a whole number sent as user_id, anonymous_id, session_id, previous_id (track,
// identify, alias, replay) is the id written as its decimal string, so `42` and `"42"` are one
// person; numbers JSON does not carry exactly, fractions and other types are refused.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { resolveActor } from '../../server/ingest/identity.js';
import { patchBehaviorSettings } from '../../server/ingest/behaviorSettings.js';

t.test('numeric ids', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);

  await t.test('track: a number is its decimal string', async (t) => {
    const res = await ingestEvents(server, key, [
      { event: 'n_signup', user_id: 42, session_id: 7 },
      { event: 'n_view', anonymous_id: 1001 },
      { event: 'n_buy', user_id: '42' },
      { event: 'n_negative', user_id: -5 },
      { event: 'n_large', user_id: Number.MAX_SAFE_INTEGER },
    ]);
    t.equal(res.status, 202);
    t.same(res.body, { accepted: 5, rejected: [] });
    const rows = await readTable(server, "SELECT event, distinct_id, user_id, anonymous_id, session_id FROM events WHERE project_id = $1 AND event LIKE 'n_%' ORDER BY event", [project.id]);
    t.same(
      rows.map((r) => [r.event, r.distinct_id, r.user_id, r.anonymous_id, r.session_id]),
      [
        ['n_buy', '42', '42', null, null],
        ['n_large', '9007199254740991', '9007199254740991', null, null],
        ['n_negative', '-5', '-5', null, null],
        ['n_signup', '42', '42', null, '7'],
        ['n_view', '1001', null, '1001', null],
      ],
    );
  });

  await t.test('track: what is not a whole, exactly carried number is refused, the rest stored', async (t) => {
    const res = await ingestEvents(server, key, [
      { event: 'bad_fraction', user_id: 4.5 },
      { event: 'bad_unsafe', user_id: 2 ** 60 },
      { event: 'bad_bool', user_id: true },
      { event: 'good', user_id: 3 },
    ]);
    t.equal(res.status, 202);
    t.equal(res.body.accepted, 1);
    t.same(
      res.body.rejected.map((r: { index: number; code: string }) => [r.index, r.code]),
      [
        [0, 'invalid_field'],
        [1, 'invalid_field'],
        [2, 'invalid_field'],
      ],
    );
    t.match(res.body.rejected[0].message, /user_id must be/);
  });

  await t.test('identify and alias take numbers too', async (t) => {
    await ingestEvents(server, key, [
      { event: 'n_anon', anonymous_id: 'visitor-9' },
      { event: 'n_old', anonymous_id: 555 },
    ]);
    const identified = await server.request('POST', '/v1/identify', { token: key.value, body: { anonymous_id: 'visitor-9', user_id: 77, traits: { plan: 'pro' } } });
    t.equal(identified.status, 202);
    t.equal(await resolveActor(server.running.services, project.id, 'visitor-9'), '77');
    const traits = await readTable(server, 'SELECT user_id, traits FROM actor_traits WHERE project_id = $1', [project.id]);
    t.same(
      traits.map((r) => [r.user_id, JSON.parse(String(r.traits))]),
      [['77', { plan: 'pro' }]],
    );
    const aliased = await server.request('POST', '/v1/alias', { token: key.value, body: { previous_id: 555, user_id: '77' } });
    t.equal(aliased.status, 202);
    t.equal(await resolveActor(server.running.services, project.id, '555'), '77', 'the number and the text name one person');
    const refused = await server.request('POST', '/v1/alias', { token: key.value, body: { previous_id: 1.25, user_id: 77 } });
    t.equal(refused.status, 422);
    t.match(refused.body.error, { details: { field: 'previous_id' } });
  });

  await t.test('a replay chunk with numeric ids is stored under their text', async (t) => {
    patchBehaviorSettings(server.running.services.meta, project.id, { replay_enabled: true }, null, server.clock.now());
    const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
    const body = { credential: browser.value, session_id: 31, anonymous_id: 1001, seq: 0, events: [{ type: 4, timestamp: Date.now(), data: {} }] };
    const res = await server.request('POST', '/v1/replay', { raw: JSON.stringify(body), headers: { 'content-type': 'text/plain', origin: 'https://shop.example' } });
    t.equal(res.status, 202, JSON.stringify(res.body));
    const rows = await readTable(server, 'SELECT session_id, anonymous_id FROM replay_chunks WHERE project_id = $1', [project.id]);
    t.same(
      rows.map((r) => [r.session_id, r.anonymous_id]),
      [['31', '1001']],
    );
  });
});

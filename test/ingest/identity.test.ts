// identify and alias over HTTP: read-time actor resolution, the merge rules (chains, conflicts,
// one anonymous id claimed by two users), traits, and a randomized comparison of the flattened
// links table with a plain parent-pointer model of the same rules.

import t from 'tap';
import fc from 'fast-check';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { resolveActor } from '../../server/ingest/identity.js';

const identify = (server: TestServer, key: string, body: unknown, headers: Record<string, string> = {}) => server.request('POST', '/v1/identify', { token: key, body, headers });
const alias = (server: TestServer, key: string, body: unknown) => server.request('POST', '/v1/alias', { token: key, body });

async function actorsByEvent(server: TestServer, projectId: number): Promise<Record<string, string>> {
  const rows = await readTable(
    server,
    `SELECT e.event, COALESCE(l.actor_id, e.distinct_id) AS actor FROM events e
       LEFT JOIN identity_links l ON l.project_id = e.project_id AND l.distinct_id = e.distinct_id
      WHERE e.project_id = $1`,
    [projectId],
  );
  return Object.fromEntries(rows.map((r) => [r.event, r.actor]));
}

t.test('identity', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project).value;

  t.test('identify: 401 → 422 → 403 → 202', async (t) => {
    t.equal((await identify(server, '', { anonymous_id: 'a', user_id: 'u' })).status, 401);
    const cases: Array<[unknown, string]> = [
      [{ anonymous_id: 'a' }, 'invalid request body: user_id is required'],
      [{ anonymous_id: 'a', user_id: '' }, 'invalid request body: user_id must NOT have fewer than 1 characters'],
      [{ anonymous_id: 'a', user_id: 'u', traits: 'pro' }, 'invalid request body: traits must be object'],
      [{ anonymous_id: 'a', user_id: 'u', traits: { blob: 'x'.repeat(17 * 1024) } }, 'traits is larger than 16384 bytes'],
      [{ anonymous_id: 'a', user_id: 'u', extra: true }, 'invalid request body: extra is not a known field'],
    ];
    for (const [body, message] of cases) {
      const res = await identify(server, key, body);
      t.equal(res.status, 422, message);
      t.equal(res.body.error.message, message);
    }
    const eventsOnly = createIngestKey(server, project, { scopes: ['events:write'] });
    t.equal((await identify(server, eventsOnly.value, { anonymous_id: 'a', user_id: 'u' })).body.error.code, 'credential_scope_forbidden');
    const aliasMissing = await alias(server, key, { user_id: 'u' });
    t.equal(aliasMissing.body.error.message, 'invalid request body: previous_id is required');
  });

  t.test('events sent before identify belong to the identified actor', async (t) => {
    await ingestEvents(server, key, [
      { event: 'anon-view', anonymous_id: 'anon-1' },
      { event: 'stranger-view', anonymous_id: 'anon-9' },
    ]);
    const res = await identify(server, key, { anonymous_id: 'anon-1', user_id: 'user-1' });
    t.equal(res.status, 202);
    t.same(res.body, { accepted: 1, rejected: [] });
    await ingestEvents(server, key, [{ event: 'user-purchase', anonymous_id: 'anon-1', user_id: 'user-1' }]);
    t.same(await actorsByEvent(server, project.id), { 'anon-view': 'user-1', 'stranger-view': 'anon-9', 'user-purchase': 'user-1' });
    t.same(await identify(server, key, { anonymous_id: 'anon-1', user_id: 'user-1' }).then((r) => r.body), { accepted: 1, rejected: [] }, 'repeating is harmless');
    t.same(await identify(server, key, { anonymous_id: 'same', user_id: 'same' }).then((r) => r.body), { accepted: 1, rejected: [] });
    t.equal(await resolveActor(server.running.services, project.id, 'same'), 'same', 'no self link');
  });

  t.test('one anonymous id claimed by two users: the first claim wins', async (t) => {
    const res = await identify(server, key, { anonymous_id: 'anon-1', user_id: 'user-2' });
    t.equal(res.status, 202);
    t.same(res.body, { accepted: 0, rejected: [{ index: 0, code: 'identity_conflict', message: 'anonymous_id already belongs to another user; the first claim wins' }] });
    t.equal(await resolveActor(server.running.services, project.id, 'anon-1'), 'user-1');
    const [record] = await readTable(server, `SELECT operation, code FROM ingest_rejections WHERE code = 'identity_conflict'`);
    t.same(record, { operation: 'identify', code: 'identity_conflict' });
  });

  t.test('alias merges an actor and everything linked to it; chains stay flat', async (t) => {
    await identify(server, key, { anonymous_id: 'anon-2', user_id: 'user-2' });
    await identify(server, key, { anonymous_id: 'anon-3', user_id: 'user-2' });
    const res = await alias(server, key, { previous_id: 'user-2', user_id: 'user-3' });
    t.same(res.body, { accepted: 1, rejected: [] });
    // Linking to a merged id resolves to where it went.
    await alias(server, key, { previous_id: 'anon-4', user_id: 'user-2' });
    const links = await readTable(server, `SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1 AND distinct_id IN ('anon-2', 'anon-3', 'user-2', 'anon-4') ORDER BY distinct_id`, [
      project.id,
    ]);
    t.same(links, [
      { distinct_id: 'anon-2', actor_id: 'user-3' },
      { distinct_id: 'anon-3', actor_id: 'user-3' },
      { distinct_id: 'anon-4', actor_id: 'user-3' },
      { distinct_id: 'user-2', actor_id: 'user-3' },
    ]);
    const conflict = await alias(server, key, { previous_id: 'anon-2', user_id: 'user-1' });
    t.same(conflict.body.rejected, [{ index: 0, code: 'identity_conflict', message: 'previous_id already belongs to another user; the first claim wins' }]);
    const backwards = await alias(server, key, { previous_id: 'user-3', user_id: 'anon-2' });
    t.same(backwards.body, { accepted: 1, rejected: [] }, 'aliasing an actor to one of its own ids changes nothing');
    t.equal(await resolveActor(server.running.services, project.id, 'user-3'), 'user-3');
  });

  t.test('traits merge per user: later keys win, null removes', async (t) => {
    await identify(server, key, { anonymous_id: 'anon-t', user_id: 'user-t', traits: { plan: 'free', seats: 1 } });
    await identify(server, key, { anonymous_id: 'anon-t', user_id: 'user-t', traits: { plan: 'pro', seats: null, country: 'DE' } });
    const [row] = await readTable(server, `SELECT traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1 AND user_id = 'user-t'`, [project.id]);
    t.same(JSON.parse(row!.traits), { plan: 'pro', country: 'DE' });
  });

  t.test('a browser token identifies from its own page', async (t) => {
    const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
    const res = await identify(server, browser.value, { anonymous_id: 'anon-b', user_id: 'user-b' }, { origin: 'https://shop.example', 'x-pp-tracker': 'pp-browser/0.6.5' });
    t.equal(res.status, 202);
  });

  t.test('randomized: the flat links table agrees with a parent-pointer model', async (t) => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ op: fc.constantFrom('identify', 'alias'), from: fc.integer({ min: 0, max: 5 }), to: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 10 }),
        async (ops) => {
          run += 1;
          const id = (n: number) => `r${run}-${n}`;
          // The model keeps chains: parent pointers, resolved by walking.
          const parent = new Map<string, string>();
          const root = (x: string): string => (parent.has(x) ? root(parent.get(x)!) : x);
          const expected: boolean[] = [];
          for (const { op, from, to } of ops) {
            const [f, target] = [id(from), root(id(to))];
            let conflict = false;
            if (parent.has(f)) conflict = root(f) !== target;
            else if (target !== f) parent.set(f, target);
            expected.push(conflict);
            const body = op === 'identify' ? { anonymous_id: f, user_id: id(to) } : { previous_id: f, user_id: id(to) };
            const res = op === 'identify' ? await identify(server, key, body) : await alias(server, key, body);
            if (res.status !== 202 || (res.body.rejected.length === 1) !== conflict) return false;
          }
          for (let n = 0; n <= 5; n++) {
            if ((await resolveActor(server.running.services, project.id, id(n))) !== root(id(n))) return false;
          }
          // Flat: no link points at an id that is itself linked.
          const chained = await readTable(server, `SELECT count(*) AS n FROM identity_links a JOIN identity_links b ON a.project_id = b.project_id AND a.actor_id = b.distinct_id`);
          // Every link carries the keys of its ids, re-pointed links included.
          const [keys] = await readTable(
            server,
            `SELECT count(*) FILTER (WHERE distinct_key IS DISTINCT FROM md5_number_lower(distinct_id) OR actor_key IS DISTINCT FROM md5_number_lower(actor_id)) AS n FROM identity_links`,
          );
          return chained[0]!.n === 0 && keys!.n === 0;
        },
      ),
      { numRuns: 25 },
    );
    t.pass('model and table agree');
  });
});

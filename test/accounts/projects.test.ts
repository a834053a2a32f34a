// Projects: list and read (viewer+), create and update (admin+) with a validated IANA time zone and
// ISO 4217 currency, delete (owner); another organization's project is 404.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';

// These members act through minted access tokens and need no password (nor its argon2 cost).
const NO_PASSWORD = { password: null };

t.test('projects', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server, { timezone: 'America/New_York' });
  const ownerToken = await accessTokenFor(server, owner, org);
  const adminToken = await accessTokenFor(server, await addMember(server, org, 'admin', NO_PASSWORD), org);
  const viewerToken = await accessTokenFor(server, await addMember(server, org, 'viewer', NO_PASSWORD), org);
  const foreign = await createTenant(server);
  const foreignToken = await accessTokenFor(server, foreign.owner, foreign.org);

  t.test("list: only the organization's projects", async (t) => {
    t.equal((await server.request('GET', '/api/v1/projects')).status, 401);
    const res = await server.request('GET', '/api/v1/projects', { token: viewerToken });
    t.equal(res.status, 200);
    t.same(res.body, { items: [{ id: project.id, org_id: org.id, name: 'Test project', timezone: 'America/New_York', currency: 'USD', created_at: project.created_at }], next_cursor: null });
  });

  t.test('create: 401, 422 (schema, then time zone), 403, 201', async (t) => {
    t.equal((await server.request('POST', '/api/v1/projects', { body: { name: 'A' } })).status, 401);
    const cases: Array<[unknown, string, string]> = [
      [{}, 'name', 'invalid request body: name is required'],
      [{ name: '' }, 'name', 'invalid request body: name must NOT have fewer than 1 characters'],
      [{ name: 'A', timezone: 7 }, 'timezone', 'invalid request body: timezone must be string'],
      [{ name: 'A', colour: 'red' }, 'colour', 'invalid request body: colour is not a known field'],
      [{ name: 'A', timezone: 'Mars/Olympus_Mons' }, 'timezone', 'timezone "Mars/Olympus_Mons" is not an IANA time zone name such as Europe/Berlin'],
      [{ name: 'A', currency: 978 }, 'currency', 'invalid request body: currency must be string'],
      [{ name: 'A', currency: 'ZZZ' }, 'currency', 'currency "ZZZ" is not an ISO 4217 currency code such as USD or EUR'],
      [{ name: 'A', currency: 'euro' }, 'currency', 'currency "euro" is not an ISO 4217 currency code such as USD or EUR'],
    ];
    for (const [body, field, message] of cases) {
      const res = await server.request('POST', '/api/v1/projects', { token: adminToken, body });
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.details.field, field);
      t.equal(res.body.error.message, message);
    }
    t.equal((await server.request('POST', '/api/v1/projects', { token: viewerToken, body: { name: 'A' } })).status, 403);
    const utc = await server.request('POST', '/api/v1/projects', { token: adminToken, body: { name: ' Shop ' } });
    t.equal(utc.status, 201);
    t.equal(utc.body.name, 'Shop');
    t.equal(utc.body.timezone, 'UTC', 'UTC by default');
    t.equal(utc.body.currency, 'USD', 'USD by default');
    t.equal(utc.body.org_id, org.id);
    const berlin = await server.request('POST', '/api/v1/projects', { token: adminToken, body: { name: 'Berlin', timezone: 'europe/berlin' } });
    t.equal(berlin.body.timezone, 'Europe/Berlin', 'the spelling is normalized');
    const yen = await server.request('POST', '/api/v1/projects', { token: adminToken, body: { name: 'Tokyo', currency: 'jpy' } });
    t.equal(yen.status, 201);
    t.equal(yen.body.currency, 'JPY', "the creator's currency, in capitals");
  });

  t.test("read: 400 for a bad id, 404 for another organization's project, 200", async (t) => {
    t.equal((await server.request('GET', `/api/v1/projects/${project.id}`)).status, 401);
    t.equal((await server.request('GET', '/api/v1/projects/abc', { token: viewerToken })).status, 400);
    t.equal((await server.request('GET', '/api/v1/projects/0', { token: viewerToken })).status, 400);
    const other = await server.request('GET', `/api/v1/projects/${foreign.project.id}`, { token: viewerToken });
    t.equal(other.status, 404);
    t.equal(other.body.error.code, 'not_found');
    t.equal((await server.request('GET', '/api/v1/projects/2147483647', { token: viewerToken })).status, 404);
    const res = await server.request('GET', `/api/v1/projects/${project.id}`, { token: viewerToken });
    t.equal(res.status, 200);
    t.equal(res.body.timezone, 'America/New_York');
  });

  t.test('update: 422, 403, 404, 200', async (t) => {
    const path = `/api/v1/projects/${project.id}`;
    t.equal((await server.request('PATCH', path, { body: { name: 'B' } })).status, 401);
    t.equal((await server.request('PATCH', path, { token: adminToken, body: {} })).status, 422, 'an empty change is refused');
    const badZone = await server.request('PATCH', path, { token: adminToken, body: { timezone: 'Europe/Atlantis' } });
    t.equal(badZone.status, 422);
    t.equal(badZone.body.error.details.field, 'timezone');
    t.equal((await server.request('PATCH', path, { token: viewerToken, body: { name: 'B' } })).status, 403);
    t.equal((await server.request('PATCH', `/api/v1/projects/${foreign.project.id}`, { token: adminToken, body: { name: 'B' } })).status, 404);
    const res = await server.request('PATCH', path, { token: adminToken, body: { timezone: 'Asia/Kolkata' } });
    t.equal(res.status, 200);
    t.same(res.body, { id: project.id, org_id: org.id, name: 'Test project', timezone: 'Asia/Kolkata', currency: 'USD', created_at: project.created_at });
    const renamed = await server.request('PATCH', path, { token: adminToken, body: { name: 'Renamed' } });
    t.equal(renamed.body.timezone, 'Asia/Kolkata', 'fields not sent are kept');
    t.equal(renamed.body.name, 'Renamed');
  });

  t.test('currency: 422 for an unknown code, 403 for a viewer, set by an admin, named by the revenue answer', async (t) => {
    const path = `/api/v1/projects/${project.id}`;
    const revenue = async () => (await server.request('POST', `${path}/queries/revenue-summary`, { token: viewerToken, body: { date_from: '2026-01-01', date_to: '2026-01-31' } })).body;
    t.equal((await revenue()).currency, 'USD', 'the revenue answer names the project currency');
    const unknown = await server.request('PATCH', path, { token: adminToken, body: { currency: 'ZZZ' } });
    t.equal(unknown.status, 422);
    t.equal(unknown.body.error.code, 'validation_failed');
    t.equal(unknown.body.error.message, 'currency "ZZZ" is not an ISO 4217 currency code such as USD or EUR');
    t.equal(unknown.body.error.details.field, 'currency');
    t.equal((await server.request('PATCH', path, { token: adminToken, body: { currency: '' } })).body.error.message, 'invalid request body: currency must NOT have fewer than 1 characters');
    t.equal((await server.request('PATCH', path, { token: viewerToken, body: { currency: 'EUR' } })).status, 403, 'a viewer cannot change it');
    t.equal((await server.request('GET', path, { token: viewerToken })).body.currency, 'USD', 'unchanged after the refusals');
    const set = await server.request('PATCH', path, { token: adminToken, body: { currency: 'eur' } });
    t.equal(set.status, 200);
    t.equal(set.body.currency, 'EUR');
    t.equal(set.body.timezone, 'Asia/Kolkata', 'fields not sent are kept');
    const listed = await server.request('GET', '/api/v1/projects', { token: viewerToken });
    t.equal(listed.body.items.find((p: { id: number }) => p.id === project.id).currency, 'EUR', 'shown in the list');
    const answer = await revenue();
    t.equal(answer.currency, 'EUR', 'the revenue answer follows the change, not an earlier cached answer');
    t.equal(answer.revenue, 0);
  });

  t.test('delete: owner only; afterwards 404 everywhere and the id is not reused', async (t) => {
    const created = await server.request('POST', '/api/v1/projects', { token: adminToken, body: { name: 'Doomed' } });
    const path = `/api/v1/projects/${created.body.id}`;
    t.equal((await server.request('DELETE', path)).status, 401);
    t.equal((await server.request('DELETE', path, { token: adminToken })).status, 403);
    t.equal((await server.request('DELETE', path, { token: foreignToken })).status, 404);
    t.equal((await server.request('DELETE', path, { token: ownerToken })).status, 204);
    t.equal((await server.request('GET', path, { token: ownerToken })).status, 404);
    t.equal((await server.request('DELETE', path, { token: ownerToken })).status, 404);
    const list = await server.request('GET', '/api/v1/projects', { token: ownerToken });
    t.notOk(list.body.items.some((p: { id: number }) => p.id === created.body.id));
    const next = await server.request('POST', '/api/v1/projects', { token: adminToken, body: { name: 'Next' } });
    t.ok(next.body.id > created.body.id, 'a new project never takes a deleted id');
  });
});

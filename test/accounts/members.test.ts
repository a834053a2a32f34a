// Members: listing (admin+), role changes and removal with the owner rules (owners changed only by
// owners, never the last owner), and rights read on every request: a demoted member is 403 at once,
// a removed one 401.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { addMembership } from '../../server/accounts/organizations.js';

// Members here act through minted access tokens, so they need no password (and no argon2 cost).
const NO_PASSWORD = { password: null };

t.test('members', async (t) => {
  const server = await startTestServer(t);
  const { owner, org } = await createTenant(server);
  const ownerToken = await accessTokenFor(server, owner, org);
  const admin = await addMember(server, org, 'admin', NO_PASSWORD);
  const adminToken = await accessTokenFor(server, admin, org);
  const analyst = await addMember(server, org, 'analyst', NO_PASSWORD);
  const analystToken = await accessTokenFor(server, analyst, org);
  const base = `/api/v1/orgs/${org.id}/members`;
  const patch = (token: string | undefined, userId: number, body: unknown) => server.request('PATCH', `${base}/${userId}`, { token, body });
  const remove = (token: string | undefined, userId: number) => server.request('DELETE', `${base}/${userId}`, { token });

  t.test('list: 401, 400, 403, 404, then every member in joining order', async (t) => {
    t.equal((await server.request('GET', base)).status, 401);
    t.equal((await server.request('GET', '/api/v1/orgs/abc/members', { token: adminToken })).status, 400);
    t.equal((await server.request('GET', base, { token: analystToken })).status, 403);
    const foreign = await createTenant(server);
    t.equal((await server.request('GET', `/api/v1/orgs/${foreign.org.id}/members`, { token: adminToken })).status, 404);
    const res = await server.request('GET', base, { token: adminToken });
    t.equal(res.status, 200);
    t.same(
      res.body.items.map((m: { user_id: number; role: string }) => [m.user_id, m.role]),
      [
        [owner.id, 'owner'],
        [admin.id, 'admin'],
        [analyst.id, 'analyst'],
      ],
    );
    t.same(Object.keys(res.body.items[0]).sort(), ['email', 'joined_at', 'name', 'role', 'user_id']);
  });

  t.test('change role: 401, 422, 403, 404, then 200', async (t) => {
    t.equal((await patch(undefined, analyst.id, { role: 'viewer' })).status, 401);
    const bad = await patch(adminToken, analyst.id, { role: 'root' });
    t.equal(bad.status, 422);
    t.equal(bad.body.error.details.field, 'role');
    t.equal((await patch(analystToken, analyst.id, { role: 'admin' })).status, 403, 'an analyst cannot promote anyone, themselves included');
    t.equal((await patch(adminToken, 424242, { role: 'viewer' })).status, 404);
    const res = await patch(adminToken, analyst.id, { role: 'viewer' });
    t.equal(res.status, 200);
    t.equal(res.body.role, 'viewer');
    t.equal(res.body.user_id, analyst.id);
  });

  t.test('a demoted member is refused at once with the token they already hold', async (t) => {
    const target = await addMember(server, org, 'admin', NO_PASSWORD);
    const token = await accessTokenFor(server, target, org);
    t.equal((await server.request('GET', base, { token })).status, 200);
    await patch(ownerToken, target.id, { role: 'viewer' });
    const res = await server.request('GET', base, { token });
    t.equal(res.status, 403);
    t.equal(res.body.error.code, 'forbidden');
  });

  t.test('owners are changed only by owners, and the last owner stays', async (t) => {
    const promote = await patch(adminToken, admin.id, { role: 'owner' });
    t.equal(promote.status, 403, 'an admin cannot make anyone owner, themselves included');
    t.equal(promote.body.error.message, 'only an owner may change an owner or make someone owner');
    t.equal((await patch(adminToken, owner.id, { role: 'viewer' })).status, 403, 'an admin cannot demote an owner');
    t.equal((await remove(adminToken, owner.id)).status, 403, 'an admin cannot remove an owner');

    const last = await patch(ownerToken, owner.id, { role: 'admin' });
    t.equal(last.status, 409);
    t.same(last.body.error, { code: 'last_owner', message: 'an organization needs at least one owner; make someone else owner first', details: {} });
    t.equal((await remove(ownerToken, owner.id)).status, 409, 'the last owner cannot be removed');

    const second = await addMember(server, org, 'admin', NO_PASSWORD);
    t.equal((await patch(ownerToken, second.id, { role: 'owner' })).status, 200, 'an owner makes another owner');
    const secondToken = await accessTokenFor(server, second, org);
    t.equal((await patch(secondToken, owner.id, { role: 'admin' })).status, 200, 'with two owners, one may demote the other');
    t.equal((await patch(secondToken, second.id, { role: 'admin' })).status, 409, 'but not the one that is left');
    t.equal((await patch(secondToken, owner.id, { role: 'owner' })).status, 200);
  });

  t.test('remove: 404 for a non-member, 204, and the removed member gets 401 on the next request', async (t) => {
    const target = await addMember(server, org, 'analyst', NO_PASSWORD);
    const token = await accessTokenFor(server, target, org);
    t.equal((await server.request('GET', '/api/v1/projects', { token })).status, 200);
    t.equal((await remove(analystToken, target.id)).status, 403);
    const outsider = await createTenant(server);
    t.equal((await remove(adminToken, outsider.owner.id)).status, 404);
    t.equal((await remove(adminToken, target.id)).status, 204);
    const res = await server.request('GET', '/api/v1/projects', { token });
    t.equal(res.status, 401);
    t.equal(res.body.error.code, 'unauthorized');
    t.equal((await remove(adminToken, target.id)).status, 404, 'already gone');
  });

  t.test('removal from one organization leaves the member in others', async (t) => {
    const other = await createTenant(server);
    const both = await addMember(server, org, 'viewer', NO_PASSWORD);
    addMembership(server.running.services.meta, other.org.id, both.id, 'viewer', server.clock.now());
    const otherToken = await accessTokenFor(server, both, other.org);
    t.equal((await remove(adminToken, both.id)).status, 204);
    t.equal((await server.request('GET', '/api/v1/projects', { token: otherToken })).status, 200);
  });
});

t.test('rename the organization (admin+)', async (t) => {
  const server = await startTestServer(t);
  const { owner, org } = await createTenant(server);
  const path = `/api/v1/orgs/${org.id}`;
  t.equal((await server.request('PATCH', path, { body: { name: 'X' } })).status, 401);
  const ownerToken = await accessTokenFor(server, owner, org);
  t.equal((await server.request('PATCH', path, { token: ownerToken, body: { name: '   ' } })).status, 422);
  const analyst = await accessTokenFor(server, await addMember(server, org, 'analyst', NO_PASSWORD), org);
  t.equal((await server.request('PATCH', path, { token: analyst, body: { name: 'X' } })).status, 403);
  const res = await server.request('PATCH', path, { token: ownerToken, body: { name: ' Renamed ' } });
  t.equal(res.status, 200);
  t.same(res.body, { id: org.id, name: 'Renamed', created_at: org.created_at });
  const me = await server.request('GET', '/api/v1/me', { token: analyst });
  t.equal(me.body.org.name, 'Renamed');
});

// GET /me: the user, the token's organization with the role read now, and every membership.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { addMembership, createOrganization, setMembershipRole } from '../../server/accounts/organizations.js';

// These members act through minted access tokens and need no password (nor its argon2 cost).
const NO_PASSWORD = { password: null };

t.test('GET /me', async (t) => {
  const server = await startTestServer(t);
  const { org } = await createTenant(server);
  const member = await addMember(server, org, 'analyst', NO_PASSWORD);
  const { meta, clock } = server.running.services;
  const other = createOrganization(meta, 'Elsewhere', clock.now());
  addMembership(meta, other.id, member.id, 'admin', clock.now());
  const token = await accessTokenFor(server, member, org);

  t.equal((await server.request('GET', '/api/v1/me')).status, 401);
  const res = await server.request('GET', '/api/v1/me', { token });
  t.equal(res.status, 200);
  t.same(res.body, {
    user: { id: member.id, email: member.email, name: null, created_at: member.created_at, mfa_enabled: false, password_change_required: false },
    org: { id: org.id, name: 'Test org', role: 'analyst' },
    orgs: [
      { id: org.id, name: 'Test org', role: 'analyst' },
      { id: other.id, name: 'Elsewhere', role: 'admin' },
    ],
    session_id: res.body.session_id,
  });
  t.match(res.body.session_id, /^[0-9a-f-]{36}$/);

  setMembershipRole(meta, org.id, member.id, 'viewer');
  const after = await server.request('GET', '/api/v1/me', { token });
  t.equal(after.body.org.role, 'viewer', 'the role is read on every request, not taken from the token');
});

t.test('PATCH /me: a person changes their display name', async (t) => {
  const server = await startTestServer(t);
  const { org } = await createTenant(server);
  const member = await addMember(server, org, 'viewer', NO_PASSWORD);
  const token = await accessTokenFor(server, member, org);
  const rename = (body: unknown) => server.request('PATCH', '/api/v1/me', { token, body });

  t.equal((await server.request('PATCH', '/api/v1/me', { body: { name: 'Ana' } })).status, 401);
  const cases: Array<[body: unknown, field: string]> = [
    [{}, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ name: 'x'.repeat(201) }, 'name'],
    [{ name: 7 }, 'name'],
    [{ name: 'Ana', email: 'other@example.test' }, 'email'],
  ];
  for (const [body, field] of cases) {
    const res = await rename(body);
    t.equal(res.status, 422, JSON.stringify(body));
    t.equal(res.body.error.code, 'validation_failed');
    t.equal(res.body.error.details.field, field, `${JSON.stringify(body)}: names the field`);
  }
  t.equal((await rename({ name: '   ' })).body.error.message, 'invalid request body: name must not be blank');
  const res = await rename({ name: '  Ana Silva ' });
  t.equal(res.status, 200);
  t.equal(res.body.user.name, 'Ana Silva', 'trimmed');
  t.equal(res.body.user.email, member.email, 'the answer is the caller, as GET /me');
  t.equal((await server.request('GET', '/api/v1/me', { token })).body.user.name, 'Ana Silva', 'kept');
  t.equal((await rename({ name: 'x'.repeat(200) })).status, 200, '200 characters are allowed');
});

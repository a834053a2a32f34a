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

// The role matrix of every account route group: each role below a route's minimum gets 403
// `forbidden`, each role at or above it succeeds. Every call gets fresh targets, so a success in one
// row cannot change the outcome of another.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, uniqueEmail, type Tenant } from '../support/factories.js';
import { createProject } from '../../server/accounts/projects.js';
import { createSession } from '../../server/auth/sessions.js';
import { createInvite } from '../../server/accounts/invites.js';
import { ROLES, atLeast, type Role } from '../../server/access/roles.js';
import type { User } from '../../server/accounts/users.js';

// Nobody here signs in with a password; skipping argon2 keeps the matrix fast.
const NO_PASSWORD = { password: null };

interface Call {
  method: string;
  path: string;
  body?: unknown;
}

interface Row {
  group: string;
  minimum: Role;
  call(server: TestServer, tenant: Tenant, caller: User): Promise<Call>;
}

const ROWS: Row[] = [
  { group: 'me', minimum: 'viewer', call: async () => ({ method: 'GET', path: '/api/v1/me' }) },
  { group: 'sessions', minimum: 'viewer', call: async () => ({ method: 'GET', path: '/api/v1/me/sessions' }) },
  {
    group: 'sessions',
    minimum: 'viewer',
    call: async (server, tenant, caller) => ({ method: 'DELETE', path: `/api/v1/me/sessions/${createSession(server.running.services, { userId: caller.id, orgId: tenant.org.id })}` }),
  },
  { group: 'mfa', minimum: 'viewer', call: async () => ({ method: 'POST', path: '/api/v1/me/mfa/setup' }) },
  { group: 'org', minimum: 'admin', call: async (_s, tenant) => ({ method: 'PATCH', path: `/api/v1/orgs/${tenant.org.id}`, body: { name: 'Renamed' } }) },
  { group: 'members', minimum: 'admin', call: async (_s, tenant) => ({ method: 'GET', path: `/api/v1/orgs/${tenant.org.id}/members` }) },
  {
    group: 'members',
    minimum: 'admin',
    call: async (server, tenant) => ({ method: 'PATCH', path: `/api/v1/orgs/${tenant.org.id}/members/${(await addMember(server, tenant.org, 'viewer', NO_PASSWORD)).id}`, body: { role: 'analyst' } }),
  },
  {
    group: 'members',
    minimum: 'admin',
    call: async (server, tenant) => ({ method: 'DELETE', path: `/api/v1/orgs/${tenant.org.id}/members/${(await addMember(server, tenant.org, 'viewer', NO_PASSWORD)).id}` }),
  },
  { group: 'invites', minimum: 'admin', call: async (_s, tenant) => ({ method: 'POST', path: `/api/v1/orgs/${tenant.org.id}/invites`, body: { email: uniqueEmail(), role: 'viewer' } }) },
  { group: 'invites', minimum: 'admin', call: async (_s, tenant) => ({ method: 'GET', path: `/api/v1/orgs/${tenant.org.id}/invites` }) },
  {
    group: 'invites',
    minimum: 'admin',
    call: async (server, tenant) => {
      const { invite } = createInvite(server.running.services, { orgId: tenant.org.id, email: uniqueEmail(), role: 'viewer', actor: { userId: tenant.owner.id, role: 'owner' } });
      return { method: 'DELETE', path: `/api/v1/orgs/${tenant.org.id}/invites/${invite.id}` };
    },
  },
  { group: 'projects', minimum: 'viewer', call: async () => ({ method: 'GET', path: '/api/v1/projects' }) },
  { group: 'projects', minimum: 'admin', call: async () => ({ method: 'POST', path: '/api/v1/projects', body: { name: 'New' } }) },
  { group: 'projects', minimum: 'viewer', call: async (_s, tenant) => ({ method: 'GET', path: `/api/v1/projects/${tenant.project.id}` }) },
  { group: 'projects', minimum: 'admin', call: async (_s, tenant) => ({ method: 'PATCH', path: `/api/v1/projects/${tenant.project.id}`, body: { timezone: 'Europe/Paris' } }) },
  {
    group: 'projects',
    minimum: 'owner',
    call: async (server, tenant) => ({ method: 'DELETE', path: `/api/v1/projects/${createProject(server.running.services.meta, { orgId: tenant.org.id, name: 'Temp' }, server.clock.now()).id}` }),
  },
];

t.test('role matrix', async (t) => {
  const server = await startTestServer(t);
  const tenant = await createTenant(server);
  const members = new Map<Role, User>();
  for (const role of ROLES) members.set(role, role === 'owner' ? tenant.owner : await addMember(server, tenant.org, role, NO_PASSWORD));

  for (const row of ROWS) {
    for (const role of ROLES) {
      const caller = members.get(role)!;
      const call = await row.call(server, tenant, caller);
      const token = await accessTokenFor(server, caller, tenant.org);
      const res = await server.request(call.method, call.path, { token, body: call.body });
      const label = `${row.group}: ${call.method} ${call.path.replace(/\d+|[0-9a-f-]{36}/g, ':id')} as ${role}`;
      if (atLeast(role, row.minimum)) {
        t.ok(res.status >= 200 && res.status < 300, `${label} → ${res.status}`);
      } else {
        t.equal(res.status, 403, label);
        t.equal(res.body.error.code, 'forbidden', label);
      }
    }
  }
});

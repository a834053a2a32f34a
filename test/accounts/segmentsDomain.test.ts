// Saved segments over HTTP: 401, 422, 403 (role, entitlement), 404, 409, then create, read, list
// with a cursor, rename, use as a query filter, delete.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';
import { seedEvents } from '../support/seedEvents.js';

const server = await startTestServer(t);
const tenant = await createTenant(server);
const owner = await accessTokenFor(server, tenant.owner, tenant.org);
const viewer = await accessTokenFor(server, await addMember(server, tenant.org, 'viewer'), tenant.org);
const analyst = await accessTokenFor(server, await addMember(server, tenant.org, 'analyst'), tenant.org);
const base = `/api/v1/projects/${tenant.project.id}/segments`;
const pro = { name: 'Pro plan', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] };

t.test('refusals in order', async (t) => {
  const anonymous = await server.request('POST', base, { body: pro });
  t.equal(anonymous.status, 401);

  const cases: Array<[unknown, string]> = [
    [{ filters: pro.filters }, 'invalid request body: name is required'],
    [{ ...pro, filters: [] }, 'invalid request body: filters must NOT have fewer than 1 items'],
    [{ ...pro, filters: ['segment:1'] }, 'invalid request body: filters[0] must be object'],
    [{ ...pro, filters: [{ field: 'url', op: 'in', value: [] }] }, 'filters[0]: op in needs a non-empty array of strings, numbers or booleans, got []'],
    [{ ...pro, name: '   ' }, 'invalid request body: name must not be blank'],
  ];
  for (const [body, message] of cases) {
    const res = await server.request('POST', base, { body, token: analyst });
    t.equal(res.status, 422, message);
    t.equal(res.body.error.message, message);
  }

  const asViewer = await server.request('POST', base, { body: pro, token: viewer });
  t.equal(asViewer.status, 403);
  t.equal(asViewer.body.error.code, 'forbidden');

  // No license has been applied yet.
  const unlicensed = await server.request('POST', base, { body: pro, token: analyst });
  t.equal(unlicensed.status, 403);
  t.equal(unlicensed.body.error.code, 'entitlement_required');
  t.same(unlicensed.body.error.details, { entitlement: 'saved_segments' });

  const other = await createTenant(server);
  const foreign = await server.request('GET', `/api/v1/projects/${other.project.id}/segments`, { token: owner });
  t.equal(foreign.status, 404);
  const missing = await server.request('GET', `${base}/999999`, { token: owner });
  t.equal(missing.status, 404);
  t.equal(missing.body.error.message, 'segment not found');
});

t.test('create, read, list, rename, use in a query, delete', async (t) => {
  await grantEntitlements(server, ['saved_segments']);
  const created = await server.request('POST', base, { body: pro, token: analyst });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'Pro plan', filters: pro.filters });
  t.type(created.body.id, 'number');
  const id = created.body.id as number;

  const duplicate = await server.request('POST', base, { body: pro, token: analyst });
  t.equal(duplicate.status, 409);

  const second = await server.request('POST', base, { body: { name: 'Docs', filters: [{ field: 'path', op: 'starts_with', value: '/docs' }] }, token: owner });
  t.equal(second.status, 201);

  const read = await server.request('GET', `${base}/${id}`, { token: viewer });
  t.strictSame(read.body, created.body);

  // One per page, then the cursor gives the next; it is bound to this project.
  const page1 = await server.request('GET', `${base}?limit=1`, { token: viewer });
  t.same(
    page1.body.items.map((s: { id: number }) => s.id),
    [id],
  );
  const page2 = await server.request('GET', `${base}?limit=1&cursor=${page1.body.next_cursor}`, { token: viewer });
  t.same(
    page2.body.items.map((s: { id: number }) => s.id),
    [second.body.id],
  );
  t.equal(page2.body.next_cursor, null);
  const other = await createTenant(server);
  const otherToken = await accessTokenFor(server, other.owner, other.org);
  const replayed = await server.request('GET', `/api/v1/projects/${other.project.id}/segments?cursor=${page1.body.next_cursor}`, { token: otherToken });
  t.equal(replayed.status, 422);

  server.clock.advance(60_000);
  const renamed = await server.request('PATCH', `${base}/${id}`, { body: { name: 'Paying pro' }, token: analyst });
  t.equal(renamed.status, 200);
  t.equal(renamed.body.name, 'Paying pro');
  t.same(renamed.body.filters, pro.filters);
  t.not(renamed.body.updated_at, created.body.updated_at);
  const clash = await server.request('PATCH', `${base}/${id}`, { body: { name: 'Docs' }, token: analyst });
  t.equal(clash.status, 409);

  // A query filtered by the segment equals one filtered by its filters.
  await seedEvents(server, tenant.project.id, [
    { event: 'view', ts: '2026-06-01T10:00:00Z', user_id: 'a', props: { plan: 'pro' } },
    { event: 'view', ts: '2026-06-01T11:00:00Z', user_id: 'b', props: { plan: 'free' } },
  ]);
  const query = (filters: unknown[]) =>
    server.request('POST', `/api/v1/projects/${tenant.project.id}/queries/revenue-summary`, {
      body: { date_from: '2026-06-01', date_to: '2026-06-01', filters },
      token: viewer,
    });
  const bySegment = await query([`segment:${id}`]);
  t.equal(bySegment.status, 200);
  t.equal(bySegment.body.active_actors, 1);
  t.same(bySegment.body, (await query(pro.filters)).body);

  const asViewer = await server.request('DELETE', `${base}/${id}`, { token: viewer });
  t.equal(asViewer.status, 403);
  // Deleting needs no entitlement, so a license without saved_segments can still clean up.
  await grantEntitlements(server, ['actor_drilldown']);
  const deleted = await server.request('DELETE', `${base}/${id}`, { token: analyst });
  t.equal(deleted.status, 204);
  t.equal((await server.request('GET', `${base}/${id}`, { token: viewer })).status, 404);
  await grantEntitlements(server, ['saved_segments']);
  const gone = await query([`segment:${id}`]);
  t.equal(gone.status, 422);
});

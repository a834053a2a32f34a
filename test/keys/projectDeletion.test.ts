// Deleting a project revokes every credential it had at once: ingestion keys of each type and
// release tokens stop writing on every ingestion operation, the public configuration stops
// answering, and projects deleted before this rule get their credentials revoked on upgrade.

import t from 'tap';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey, createLegacyKey, createReleaseToken, type TestKey } from '../support/ingest.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { migrateMeta } from '../../server/store/migrate.js';
import type { Project } from '../../server/accounts/projects.js';

const REPLAY = { session_id: 's1', anonymous_id: 'a', seq: 0, events: [{ type: 2, timestamp: 1, data: {} }] };

interface Credentials {
  browser: TestKey;
  server: TestKey;
  legacy: TestKey;
  release: TestKey;
}

function issueAll(server: TestServer, project: Pick<Project, 'id'>): Credentials {
  return {
    browser: createIngestKey(server, project, { type: 'browser', domains: ['example.com'] }),
    server: createIngestKey(server, project),
    legacy: createLegacyKey(server, project),
    release: createReleaseToken(server, project),
  };
}

/** The status of every write each credential may make, by label. */
async function writes(server: TestServer, projectId: number, c: Credentials, round: string): Promise<Record<string, number>> {
  const origin = { origin: 'https://example.com' };
  const event = { events: [{ event: 'e', anonymous_id: 'a' }] };
  const calls: Record<string, () => Promise<{ status: number }>> = {
    'browser track': () => server.request('POST', '/v1/track', { token: c.browser.value, headers: origin, body: event }),
    'browser track (credential field)': () => server.request('POST', '/v1/track', { headers: origin, body: { ...event, credential: c.browser.value } }),
    'browser replay': () => server.request('POST', '/v1/replay', { token: c.browser.value, headers: origin, body: REPLAY }),
    'browser config': () => server.request('GET', `/v1/config/${c.browser.prefix}`),
    'server track': () => server.request('POST', '/v1/track', { token: c.server.value, body: event }),
    'server identify': () => server.request('POST', '/v1/identify', { token: c.server.value, body: { anonymous_id: 'a', user_id: 'u' } }),
    'server alias': () => server.request('POST', '/v1/alias', { token: c.server.value, body: { previous_id: 'a', user_id: 'u' } }),
    'legacy track (?key=)': () => server.request('POST', `/v1/track?key=${c.legacy.value}`, { body: event }),
    'legacy config': () => server.request('GET', `/v1/config/${c.legacy.prefix}`),
    'release deploy': () =>
      server.request('POST', `/api/v1/projects/${projectId}/release-markers/deploy`, { token: c.release.value, headers: { 'idempotency-key': `deploy-${round}` }, body: { release: round } }),
  };
  const out: Record<string, number> = {};
  for (const [label, call] of Object.entries(calls)) out[label] = (await call()).status;
  return out;
}

t.test('deleting a project revokes its keys and release tokens at once', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const credentials = issueAll(server, project);
  const before = await writes(server, project.id, credentials, 'before');
  t.same(
    before,
    {
      'browser track': 202,
      'browser track (credential field)': 202,
      'browser replay': 202,
      'browser config': 200,
      'server track': 202,
      'server identify': 202,
      'server alias': 202,
      'legacy track (?key=)': 202,
      'legacy config': 200,
      'release deploy': 201,
    },
    'every credential writes while the project lives',
  );

  const token = await accessTokenFor(server, owner, org);
  t.equal((await server.request('DELETE', `/api/v1/projects/${project.id}`, { token })).status, 204);
  const after = await writes(server, project.id, credentials, 'after');
  for (const [label, status] of Object.entries(after)) t.equal(status, label.endsWith('config') ? 404 : 401, `${label} after the delete`);

  const keys = server.running.services.meta.prepare('SELECT count(*) AS n FROM ingest_keys WHERE project_id = ? AND revoked_at IS NULL').get(project.id) as { n: number };
  t.equal(keys.n, 0, 'every key is recorded as revoked');
});

t.test('on upgrade, credentials of projects deleted earlier are revoked', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const kept = await createTenant(server);
  const credentials = issueAll(server, project);
  const live = issueAll(server, kept.project);
  const meta = server.running.services.meta;
  // As an older version deleted: the row marked, the credentials left as they were.
  meta.prepare('UPDATE projects SET deleted_at = ? WHERE id = ?').run('2026-10-01T00:00:00.000Z', project.id);
  meta.prepare('UPDATE ingest_keys SET revoked_at = NULL WHERE project_id = ?').run(project.id);
  meta.prepare("DELETE FROM schema_migrations WHERE name LIKE '%revoke_deleted_project_credentials%'").run();
  t.same(
    migrateMeta(meta).map((m) => m.file),
    ['0052_revoke_deleted_project_credentials.sql'],
  );
  const after = await writes(server, project.id, credentials, 'upgrade');
  for (const [label, status] of Object.entries(after)) t.equal(status, label.endsWith('config') ? 404 : 401, `${label} after the upgrade`);
  const revokedAt = meta.prepare('SELECT DISTINCT revoked_at FROM ingest_keys WHERE project_id = ?').all(project.id);
  t.same(revokedAt, [{ revoked_at: '2026-10-01T00:00:00.000Z' }], 'revoked as of the deletion');
  const stillLive = await writes(server, kept.project.id, live, 'kept');
  t.equal(stillLive['server track'], 202, "another project's credentials are untouched");
  t.equal(stillLive['release deploy'], 201);
});

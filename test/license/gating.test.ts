// End to end: a running `ppctl serve`, its answers to gated requests, and `ppctl license apply`
// and `remove` changing those answers with no restart.

import t from 'tap';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { request } from '../support/testServer.js';
import { signTestLicense, testKeysDir } from '../support/license.js';
import { tempDir } from '../support/tempDir.js';

t.test('applying a license unlocks actor drill-down and saved segments at once', async (t) => {
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const env = { PP_LICENSE_TRUSTED_KEYS: testKeysDir() };
  const served = await spawnServe(['--data-dir', dataDir], env);
  t.teardown(() => served.child.kill('SIGKILL'));
  const call = (method: string, p: string, token: string, body?: unknown) => request(served.url, method, p, { token, body });

  const registered = await request(served.url, 'POST', '/api/v1/auth/register', { body: { email: 'lic@example.test', password: 'Licensed-Owner-1' } });
  t.equal(registered.status, 201);
  const token = registered.body.access_token as string;
  const projectId = (await call('GET', '/api/v1/projects', token)).body.items[0].id as number;
  const funnel = { date_from: '2026-01-01', date_to: '2026-01-31', steps: [{ event: 'a' }, { event: 'b' }], dropped_at_step: 1 };
  const gated = async () => ({
    funnel: await call('POST', `/api/v1/projects/${projectId}/queries/funnel`, token, funnel),
    segment: await call('POST', `/api/v1/projects/${projectId}/segments`, token, { name: `s${Date.now()}`, filters: [{ field: 'source', op: 'eq', value: 'browser' }] }),
  });

  const before = await gated();
  t.equal(before.funnel.status, 403);
  t.same(before.funnel.body.error, { code: 'entitlement_required', message: before.funnel.body.error.message, details: { entitlement: 'actor_drilldown' } });
  t.equal(before.segment.status, 403);
  t.same(before.segment.body.error.details, { entitlement: 'saved_segments' });
  const basic = await call('POST', `/api/v1/projects/${projectId}/queries/funnel`, token, { ...funnel, dropped_at_step: undefined });
  t.equal(basic.status, 200, 'basic funnel counts need no license');

  const file = path.join(dir, 'pp.license');
  await writeFile(file, await signTestLicense(new Date()));
  const applied = await runPpctl(['license', 'apply', file, '--data-dir', dataDir], env);
  t.equal(applied.code, 0, applied.stderr);

  const after = await gated();
  t.equal(after.funnel.status, 200, 'dropped-at-step actors with the license');
  t.same(after.funnel.body.dropped.actors, []);
  t.equal(after.segment.status, 201, 'saved segments with the license');

  t.equal((await runPpctl(['license', 'remove', '--data-dir', dataDir], env)).code, 0);
  const removed = await gated();
  t.equal(removed.funnel.status, 403, 'removing the license turns the features off again');
  t.equal(removed.segment.status, 403);
});

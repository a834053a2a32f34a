// `ppctl keys import-legacy`: pp_wk_ values of an older installation enter a project, through the
// admin socket of a running server or directly on a stopped one. They track (also via ?key=)
// but must be rotated before identify and alias.

import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { runPpctl } from '../support/ppctl.js';
import { newValue } from '../../server/keys/keyValues.js';

t.test('import-legacy', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-legacy-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const first = newValue('legacy');
  const second = newValue('legacy');
  const file = path.join(dataDir, 'legacy-keys.txt');
  await writeFile(file, `# exported from the old installation\n${first.value}\n\nnot-a-key\n${newValue('server').value}\n`);

  const server = await startTestServer(t, { dataDir });
  const { project } = await createTenant(server);

  t.test('through the socket of a running server', async (t) => {
    const res = await runPpctl(['keys', 'import-legacy', '--data-dir', dataDir, '--project', String(project.id), '--file', file, '--name', 'old site', '--domain', 'shop.example']);
    t.equal(res.code, 0, res.stderr);
    t.match(res.stdout, new RegExp(`imported ${first.publicId} as key \\d+`));
    t.match(res.stdout, /skipped entry 2: not a pp_wk_ key value/);
    t.match(res.stdout, /skipped entry 3: not a pp_wk_ key value/);
    t.match(res.stdout, /1 imported, 2 skipped/);
    t.notOk(res.stdout.includes(first.value), 'the value is not printed back');

    const tracked = await server.request('POST', `/v1/track?key=${first.value}`, { body: { event: 'old', anonymous_id: 'a' }, headers: { origin: 'https://shop.example' } });
    t.equal(tracked.status, 202);
    t.equal(tracked.headers.get('deprecation'), 'true');
    const wrongSite = await server.request('POST', `/v1/track?key=${first.value}`, { body: { event: 'old', anonymous_id: 'a' }, headers: { origin: 'https://elsewhere.example' } });
    t.equal(wrongSite.status, 403, 'domains given at import bind the key');
    const identify = await server.request('POST', '/v1/identify', { token: first.value, body: { anonymous_id: 'a', user_id: 'u' }, headers: { origin: 'https://shop.example' } });
    t.equal(identify.body.error.code, 'credential_rotation_required');

    const again = await runPpctl(['keys', 'import-legacy', '--data-dir', dataDir, '--project', String(project.id), '--file', file]);
    t.match(again.stdout, new RegExp(`skipped entry 1 \\(${first.publicId}\\): already present`));
  });

  t.test('refusals: unknown project, no values', async (t) => {
    const res = await runPpctl(['keys', 'import-legacy', '--data-dir', dataDir, '--project', '99999', '--file', file]);
    t.equal(res.code, 1);
    t.match(res.stderr, /project 99999 does not exist/);
    const empty = await runPpctl(['keys', 'import-legacy', '--data-dir', dataDir, '--project', String(project.id)], {}, '\n');
    t.equal(empty.code, 1);
    t.match(empty.stderr, /no key values given/);
  });

  t.test('directly on a stopped installation, values on standard input', async (t) => {
    await server.close();
    const res = await runPpctl(['keys', 'import-legacy', '--data-dir', dataDir, '--project', String(project.id)], {}, `${second.value}\n`);
    t.equal(res.code, 0, res.stderr);
    t.match(res.stdout, /1 imported, 0 skipped/);
    const restarted = await startTestServer(t, { dataDir });
    const tracked = await restarted.request('POST', '/v1/track', { token: second.value, body: { event: 'old', anonymous_id: 'a' } });
    t.equal(tracked.status, 202, 'a key imported without domains is not domain-bound');
  });
});

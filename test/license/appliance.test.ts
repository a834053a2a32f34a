// The license on a running installation: ppctl apply/show/remove through the admin socket and
// directly, re-verification at start, grace and expiry, and a clock turned back.

import t from 'tap';
import { generateKeyPairSync } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import Database from 'better-sqlite3';
import { signLicense } from '../../license/index.js';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { startTestServer } from '../support/testServer.js';
import { grantEntitlements, signTestLicense, testKeysDir } from '../support/license.js';

const DAY_MS = 86_400_000;

t.test('ppctl license apply changes a running server at once; refusals exit non-zero with the reason', async (t) => {
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const env = { PP_LICENSE_TRUSTED_KEYS: testKeysDir() };
  const served = await spawnServe(['--data-dir', dataDir], env);
  t.teardown(() => served.child.kill('SIGKILL'));

  const before = await runPpctl(['license', 'show', '--json', '--data-dir', dataDir], env);
  t.equal(before.code, 0, before.stderr);
  t.equal(JSON.parse(before.stdout).status, 'none');
  const human = await runPpctl(['license', 'show', '--data-dir', dataDir], env);
  t.match(human.stdout, /No license: actor drill-down and saved segments are off/);

  const file = path.join(dir, 'customer.license');
  await writeFile(file, (await signTestLicense(new Date(), { licensee: 'Acme GmbH' })) + '\n');
  const applied = await runPpctl(['license', 'apply', file, '--data-dir', dataDir], env);
  t.equal(applied.code, 0, applied.stderr);
  t.match(applied.stdout, /License applied\.[\s\S]*Status:\s+valid[\s\S]*Licensee:\s+Acme GmbH[\s\S]*Features:\s+actor_drilldown, saved_segments/);

  const after = JSON.parse((await runPpctl(['license', 'show', '--json', '--data-dir', dataDir], env)).stdout);
  t.equal(after.status, 'valid');
  t.same(after.features, ['actor_drilldown', 'saved_segments']);
  t.equal(after.days_left, 365);

  // A license signed by a key this installation does not trust.
  const stranger = generateKeyPairSync('ed25519').privateKey;
  const now = new Date();
  const foreign = await signLicense(
    { customerId: 'x', licensee: 'X', edition: 'scale', features: ['actor_drilldown'], graceDays: 0, issuedAt: now, expiresAt: new Date(now.getTime() + DAY_MS * 30) },
    stranger,
    'pp-test-key',
  );
  await writeFile(file, foreign);
  const refused = await runPpctl(['license', 'apply', file, '--data-dir', dataDir], env);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /license refused \(signature\)/);

  await writeFile(file, await signTestLicense(new Date(now.getTime() - 400 * DAY_MS), { expiresAt: new Date(now.getTime() - 30 * DAY_MS), graceDays: 14 }));
  const expired = await runPpctl(['license', 'apply', file, '--data-dir', dataDir], env);
  t.equal(expired.code, 1);
  t.match(expired.stderr, /license refused \(expired\)/);

  await writeFile(file, await signTestLicense(now, { installId: 'another-installation' }));
  const otherInstall = await runPpctl(['license', 'apply', file, '--data-dir', dataDir], env);
  t.equal(otherInstall.code, 1);
  t.match(otherInstall.stderr, /license refused \(install_id\)/);

  const missing = await runPpctl(['license', 'apply', path.join(dir, 'nope'), '--data-dir', dataDir], env);
  t.equal(missing.code, 1);
  t.match(missing.stderr, /cannot read .*nope: ENOENT/);

  t.equal(JSON.parse((await runPpctl(['license', 'show', '--json', '--data-dir', dataDir], env)).stdout).status, 'valid', 'refusals leave the current license in place');

  const removed = await runPpctl(['license', 'remove', '--data-dir', dataDir], env);
  t.equal(removed.code, 0);
  t.equal(JSON.parse((await runPpctl(['license', 'show', '--json', '--data-dir', dataDir], env)).stdout).status, 'none');
});

t.test('a license bound to this installation applies', async (t) => {
  const server = await startTestServer(t);
  const report = server.running.services.license.report();
  const token = await signTestLicense(server.clock.now(), { installId: report.install_id });
  const applied = await server.running.services.license.apply(token);
  t.equal(applied.status, 'valid');
});

t.test('the stored license is verified again at every start', async (t) => {
  const dir = await tempDir(t);
  const first = await startTestServer(t, { dataDir: dir });
  await grantEntitlements(first, ['actor_drilldown']);
  t.same([...first.running.services.entitlements()], ['actor_drilldown']);
  await first.close();

  const second = await startTestServer(t, { dataDir: dir });
  t.same([...second.running.services.entitlements()], ['actor_drilldown'], 'still granted after a restart');
  await second.close();

  // An edited token in the database is refused at the next start.
  const db = new Database(path.join(dir, 'meta.sqlite'));
  const { token } = db.prepare('SELECT token FROM licenses WHERE removed_at IS NULL').get() as { token: string };
  const [h, p, s] = token.split('.');
  const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
  claims.lic.features = ['actor_drilldown', 'saved_segments'];
  db.prepare('UPDATE licenses SET token = ? WHERE removed_at IS NULL').run(`${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`);
  db.close();
  const third = await startTestServer(t, { dataDir: dir });
  t.same([...third.running.services.entitlements()], []);
  const report = third.running.services.license.report();
  t.equal(report.status, 'none');
  t.match(report.refused, /signature check failed/);
});

t.test('grace keeps the features; past grace they are off; a turned-back clock is reported', async (t) => {
  const server = await startTestServer(t, { now: new Date('2026-01-01T00:00:00Z') });
  const start = server.clock.now();
  await server.running.services.license.apply(await signTestLicense(start, { expiresAt: new Date(start.getTime() + 20 * DAY_MS), graceDays: 10 }));
  const services = server.running.services;
  t.equal(services.license.report().status, 'expiring', 'within 30 days of expiry');
  t.match(services.license.report().warnings[0], /expires in 20 days/);

  server.clock.advance(25 * DAY_MS);
  t.equal(services.license.report().status, 'grace');
  t.same([...services.entitlements()].sort(), ['actor_drilldown', 'saved_segments'], 'grace keeps features on');

  server.clock.advance(6 * DAY_MS);
  t.equal(services.license.report().status, 'expired');
  t.same([...services.entitlements()], [], 'past grace the gated features are off');

  // Turning the clock back does not revive the license, and is reported.
  server.clock.set(new Date(start.getTime() + 2 * DAY_MS));
  const report = services.license.report();
  t.equal(report.status, 'expired');
  t.match(report.clock_warning, /behind the latest time this installation has seen/);
  t.same([...services.entitlements()], []);
});

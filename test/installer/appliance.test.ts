// The appliance end to end, as an operator meets it: build the offline bundle and two newer test
// builds, install with the network cut off and no systemd, ingest, upgrade with a new migration,
// survive an upgrade whose migration fails (automatic rollback, data intact), back up under ingest
// load and restore to the same count, and roll back on purpose. One file: the builds are shared.

import t from 'tap';
import { existsSync, lstatSync, readFileSync, readlinkSync, readdirSync, statSync, writeFileSync, mkdirSync, copyFileSync, chmodSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { packageRoot, packageVersion } from '../../server/ground/packageRoot.js';
import { buildBundle, type BuiltBundle } from '../../installer/buildBundle.js';
import { extractTarGz } from '../../installer/archive.js';
import { request } from '../support/testServer.js';
import { tempDir } from '../support/tempDir.js';
import { freePort, IngestClient, newerVersion, runProgram } from './applianceKit.js';

t.setTimeout(15 * 60_000);

const fixtures = path.join(packageRoot(), 'test', 'installer', 'fixtures');
const PASSWORD = 'Appliance-Owner-7!';
const EMAIL = 'owner@appliance.example';

/** `unshare -n` works here (root, and a kernel that allows it) and `ip` can bring up loopback inside. */
function canCutNetwork(): boolean {
  try {
    execFileSync('unshare', ['-n', 'ip', 'link', 'set', 'lo', 'up'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Run inside the new network namespace: loopback up, proof that nothing outside is reachable, then the command.
const ISOLATED = `ip link set lo up && "$0" -e "require('net').connect(443, '1.1.1.1').on('connect', () => process.exit(1)).on('error', (e) => { console.log('outside network: ' + e.code); process.exit(0) })" && exec "$@"`;

t.test('bundle → offline install → ingest → upgrade → failed upgrade rolls back → backup under load → restore → rollback', async (t) => {
  const dir = await tempDir(t, 'pp-appliance-');
  const out = path.join(dir, 'out');
  const v1 = packageVersion();
  const [v2, v3] = [newerVersion(v1, 1), newerVersion(v1, 2)];

  // Built once each; production packages come from the build cache after the first. The two newer
  // builds are made while the first is installed and used (mostly waiting on its processes); the
  // first upgrade waits for them.
  const builds: Record<string, BuiltBundle> = {};
  builds[v1] = await buildBundle({ outDir: out, gzipLevel: 0 });
  const newerBuilds = (async () => {
    builds[v2] = await buildBundle({ outDir: out, gzipLevel: 0, version: v2, extraMigrations: [path.join(fixtures, 'upgrade-adds-table')] });
    builds[v3] = await buildBundle({ outDir: out, gzipLevel: 0, version: v3, extraMigrations: [path.join(fixtures, 'upgrade-adds-table'), path.join(fixtures, 'upgrade-fails')] });
  })();
  newerBuilds.catch(() => undefined); // its failure is reported where it is awaited
  t.match(path.basename(builds[v1]!.file), new RegExp(`^pp-${v1.replaceAll('.', '\\.')}-linux-x64\\.tar\\.gz$`));
  t.match(execFileSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: out }).toString(), new RegExp(`pp-${v1}-linux-x64.tar.gz: OK`), 'SHA256SUMS verifies with sha256sum -c');

  const unpacked = path.join(dir, 'unpacked');
  mkdirSync(unpacked);
  await extractTarGz(builds[v1]!.file, unpacked);
  const release = path.join(unpacked, `pp-${v1}`);
  for (const entry of [
    'ppctl',
    'node/bin/node',
    'dist/bin/ppctl.js',
    'migrations/sqlite',
    'sdk/browser/dist',
    'sdk/browser/released/0.6.4/tracker.js',
    'license/keys',
    'node_modules/better-sqlite3',
    'BUNDLE.json',
    'docs/operations.md',
  ]) {
    t.ok(existsSync(path.join(release, entry)), `the bundle holds ${entry}`);
  }
  t.notOk(existsSync(path.join(release, 'dist', 'test')), 'no tests in the bundle');
  const info = JSON.parse(readFileSync(path.join(release, 'BUNDLE.json'), 'utf8'));
  t.match(info, { name: 'pp', version: v1, platform: 'linux-x64', min_glibc: '2.28' });
  t.match(info.node, /^24\./, 'Node 24 LTS');
  t.equal(
    execFileSync(path.join(release, 'node', 'bin', 'node'), ['--version'])
      .toString()
      .trim(),
    `v${info.node}`,
  );

  const prefix = path.join(dir, 'opt');
  const dataDir = path.join(dir, 'data');
  const configDir = path.join(dir, 'etc');
  const binDir = path.join(dir, 'bin');
  const port = await freePort();
  writeFileSync(path.join(dir, 'password'), PASSWORD + '\n', { mode: 0o600 });
  const installArgs = [
    'install',
    '--yes',
    '--prefix',
    prefix,
    '--data-dir',
    dataDir,
    '--config-dir',
    configDir,
    '--bin-dir',
    binDir,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--base-url',
    `http://127.0.0.1:${port}`,
    '--tls',
    'off',
    '--admin-email',
    EMAIL,
    '--admin-password-file',
    path.join(dir, 'password'),
    '--signup-mode',
    'closed',
    '--no-systemd',
    '--user',
    os.userInfo().username,
  ];
  const ppctl = (...args: string[]) => runProgram(path.join(binDir, 'ppctl'), [...args, '--config-dir', configDir]);
  t.teardown(async () => {
    if (existsSync(path.join(binDir, 'ppctl'))) await ppctl('stop');
  });
  const status = async () => {
    const res = await ppctl('status', '--json');
    return {
      code: res.code,
      ...(JSON.parse(res.stdout) as {
        version: string;
        running: boolean;
        ready: boolean;
        running_version: string;
        server_pid: number;
        releases: string[];
        data: { events: number; users: number; projects: number } | null;
      }),
    };
  };
  const base = `http://127.0.0.1:${port}`;

  await t.test('install refuses, before writing anything, a data folder the service user cannot reach', async (t) => {
    chmodSync(dir, 0o755);
    const locked = path.join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o700);
    const lockedData = path.join(locked, 'data');
    const args = installArgs.map((a, i) => (installArgs[i - 1] === '--data-dir' ? lockedData : installArgs[i - 1] === '--user' ? 'nobody' : a));
    const refused = await runProgram(path.join(release, 'ppctl'), args);
    t.equal(refused.code, 1);
    t.match(
      refused.stderr,
      `the user nobody cannot reach the data folder ${lockedData}: ${locked} (mode 700, owner uid ${process.getuid!()}) does not let it through; allow it with chmod o+x ${locked}, or choose another with --data-dir`,
    );
    t.notOk(existsSync(path.join(prefix, 'releases')), 'no release copied');
    t.notOk(existsSync(configDir), 'no config written');
    t.notOk(existsSync(lockedData), 'no data folder made');
  });

  await t.test('install with the network cut off, no systemd', async (t) => {
    const isolated = canCutNetwork();
    const installed = isolated
      ? await runProgram('unshare', ['-n', 'sh', '-c', ISOLATED, path.join(release, 'node', 'bin', 'node'), path.join(release, 'ppctl'), ...installArgs])
      : await runProgram(path.join(release, 'ppctl'), installArgs);
    t.equal(installed.code, 0, installed.stderr);
    if (isolated) t.match(installed.stdout, /^outside network: (ENETUNREACH|EHOSTUNREACH|EACCES)$/m, 'inside the namespace nothing outside is reachable');
    else t.skip('cutting the network needs root and unshare -n; installed with the network present', () => undefined);
    t.match(installed.stdout, new RegExp(`pp ${v1} is installed and running at http://127\\.0\\.0\\.1:${port}`));
    t.match(installed.stdout, /owner: owner@appliance\.example {2}organization id: 1 {2}project id: 1/);
    t.match(installed.stderr, /applied \d+ database migrations/);

    t.equal(readlinkSync(path.join(prefix, 'current')), path.join('releases', v1));
    t.ok(lstatSync(path.join(binDir, 'ppctl')).isSymbolicLink());
    const configFile = path.join(configDir, 'pp.json');
    t.equal(statSync(configFile).mode & 0o777, 0o600, 'pp.json is mode 0600');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    t.match(config, { port, data_dir: dataDir, signup_mode: 'closed', host: '127.0.0.1' });
    t.match(config.secret, /^[0-9a-f]{64}$/, 'a generated secret');
    t.equal(statSync(dataDir).mode & 0o777, 0o700);

    // The server of the isolated install lives in that namespace: move it out for the rest.
    if (isolated) {
      t.match((await ppctl('stop')).stdout, /stopped/);
      const started = await ppctl('start');
      t.equal(started.code, 0, started.stderr);
      t.match(started.stdout, new RegExp(`started; pp ${v1} is ready`));
    }
    const again = await runProgram(path.join(release, 'ppctl'), installArgs);
    t.equal(again.code, 0, again.stderr);
    t.match(again.stdout, new RegExp(`pp ${v1} is already installed and running at .*; nothing changed\\.`));
    t.same(JSON.parse(readFileSync(configFile, 'utf8')), config, 'the config and its secret are untouched');

    const s = await status();
    t.match(s, { code: 0, version: v1, running: true, ready: true, running_version: v1, data: { users: 1, projects: 1, events: 0 } });
    t.equal((await request(base, 'GET', '/api/v1/health?ready=1')).status, 200);
    const signIn = await request(base, 'GET', '/sign-in');
    t.equal(signIn.status, 200, 'the installed server serves the web console');
    t.match(signIn.text, /<div id="app"><\/div>/);
    const entry = /src="(\/assets\/[^"]+\.js)"/.exec(signIn.text)?.[1];
    t.equal(entry && (await request(base, 'GET', entry)).status, 200, 'with its scripts');
  });

  const client = new IngestClient(base);
  await t.test('ingest through the installed server', async (t) => {
    await client.connect(EMAIL, PASSWORD, 1);
    for (let i = 0; i < 5; i++) await client.track(100);
    t.equal((await status()).data?.events, 500);
  });

  await t.test('doctor, logs and the support bundle', async (t) => {
    const doctor = await ppctl('doctor');
    t.equal(doctor.code, 0, doctor.stdout + doctor.stderr);
    for (const name of ['release', 'config', 'permissions', 'disk', 'service', 'database sqlite', 'database duckdb', 'migrations', 'ingest', 'license', 'clock']) {
      t.match(doctor.stdout, new RegExp(`^(ok|warn)\\s+${name}\\s`, 'm'), `doctor checks ${name}`);
    }
    t.match(doctor.stdout, /^ok\s+ingest\s+no answered event is waiting outside the event store$/m);
    // A batch the loader had set aside is reported until the operator deals with it.
    const aside = path.join(dataDir, 'ingest-journal', 'unloaded-0000000000000007.jnl');
    // (An empty file is what a full disk leaves, not a batch: it is not counted.)
    writeFileSync(aside, '');
    t.match((await ppctl('doctor')).stdout, /^ok\s+ingest\s+no answered event is waiting outside the event store$/m, 'an empty file is not a batch');
    writeFileSync(aside, 'a batch the loader could not load');
    const warned = await ppctl('doctor');
    rmSync(aside);
    t.match(warned.stdout, /^warn\s+ingest\s+1 answered ingest batch could not be loaded and is set aside in .*ingest-journal\n\s+fix: the log says why .*ppctl ingest retry/m);
    const configFile = path.join(configDir, 'pp.json');
    chmodSync(configFile, 0o644);
    const broken = await ppctl('doctor');
    chmodSync(configFile, 0o600);
    t.equal(broken.code, 1, 'a failed check exits non-zero');
    t.match(broken.stdout, /^fail\s+config\s+.*pp\.json is readable by others \(mode 644\); it holds the server secret\n\s+fix: chmod 600 /m);

    const logs = await ppctl('logs', '-n', '50');
    t.equal(logs.code, 0);
    t.match(logs.stdout, /^\d{4}-\d\d-\d\dT\S+Z {2}INFO {3}listening {2}/m, 'readable lines by default');
    const jsonLogs = await ppctl('logs', '-n', '50', '--json');
    t.match(jsonLogs.stdout, /"msg":"listening"/, 'the JSON lines with --json');

    const bundleFile = path.join(dir, 'support.tar.gz');
    const support = await ppctl('support-bundle', '--out', bundleFile);
    t.equal(support.code, 0, support.stderr);
    const unpackedSupport = path.join(dir, 'support');
    mkdirSync(unpackedSupport);
    await extractTarGz(bundleFile, unpackedSupport);
    const [top] = readdirSync(unpackedSupport);
    const files = readdirSync(path.join(unpackedSupport, top!)).sort();
    t.same(files, ['config.json', 'doctor.txt', 'install.json', 'license.json', 'migrations.json', 'pp.log', 'status.json', 'versions.json']);
    const secret = JSON.parse(readFileSync(configFile, 'utf8')).secret as string;
    for (const f of files) t.notOk(readFileSync(path.join(unpackedSupport, top!, f), 'utf8').includes(secret), `${f} does not contain the secret`);
    t.equal(JSON.parse(readFileSync(path.join(unpackedSupport, top!, 'config.json'), 'utf8')).secret, '[redacted]');
    t.match(JSON.parse(readFileSync(path.join(unpackedSupport, top!, 'versions.json'), 'utf8')), { current_release: v1, running_version: v1 });
  });

  await newerBuilds;
  await t.test(`upgrade to ${v2} with a new migration keeps the data`, async (t) => {
    const res = await ppctl('upgrade', builds[v2]!.file);
    t.equal(res.code, 0, res.stderr);
    t.match(res.stdout, new RegExp(`upgraded pp ${v1} -> ${v2} \\(migrations: sqlite/9001_upgrade_probe\\.sql, duckdb/9001_upgrade_probe\\.sql\\)`));
    t.match(res.stdout, /backup taken before the upgrade: .*\.tar/);
    const s = await status();
    t.match(s, { version: v2, running_version: v2, ready: true, data: { events: 500, users: 1, projects: 1 } });
    t.same(s.releases, [v1, v2]);
    await client.connect(EMAIL, PASSWORD, 1);
    await client.track(100);
    t.equal((await status()).data?.events, 600, 'the new release ingests');

    const same = await ppctl('upgrade', builds[v2]!.file);
    t.equal(same.code, 0);
    t.match(same.stdout, new RegExp(`pp ${v2} is already installed; nothing to do`));
    const older = await ppctl('upgrade', builds[v1]!.file);
    t.equal(older.code, 1);
    t.match(older.stderr, new RegExp(`holds pp ${v1}, older than the installed ${v2}: downgrades are refused`));

    // A bundle that does not match its SHA256SUMS is refused before anything happens.
    const tampered = path.join(dir, 'tampered');
    mkdirSync(tampered);
    copyFileSync(builds[v3]!.file, path.join(tampered, path.basename(builds[v3]!.file)));
    writeFileSync(path.join(tampered, 'SHA256SUMS'), `${'0'.repeat(64)}  ${path.basename(builds[v3]!.file)}\n`);
    const bad = await ppctl('upgrade', path.join(tampered, path.basename(builds[v3]!.file)));
    t.equal(bad.code, 1);
    t.match(bad.stderr, /does not match SHA256SUMS .*the file is damaged or not the one released/);
    t.match(await status(), { running_version: v2, ready: true });
  });

  await t.test(`an upgrade to ${v3} whose migration fails rolls back to ${v2} with its data`, async (t) => {
    const res = await ppctl('upgrade', builds[v3]!.file);
    t.equal(res.code, 1, 'a failed upgrade exits non-zero');
    t.match(res.stderr, /upgrade failed during migrate: migration duckdb\/9002_broken\.sql failed: .*migration 9002 fails on purpose/);
    t.match(res.stderr, new RegExp(`rolled back: pp ${v2} is running again with the data restored from .*\\.tar`));
    const s = await status();
    t.match(s, { version: v2, running_version: v2, ready: true, data: { events: 600, projects: 1 } });
    t.same(s.releases, [v1, v2], 'the failed release is removed');
    const migrations = JSON.parse((await ppctl('migrations', '--json')).stdout) as Record<string, Array<{ version: number }>>;
    t.same(
      migrations.sqlite!.map((m) => m.version).filter((v) => v > 9000),
      [9001],
      "the failed build's SQLite migration, which had succeeded, is undone",
    );
    await client.track(50);
    t.equal((await status()).data?.events, 650, 'the restored release ingests');
  });

  await t.test('a backup taken under ingest load restores to the same event count', async (t) => {
    let sending = true;
    const load = (async () => {
      while (sending) await client.track(20);
    })().catch(async (err: Error) => {
      // Say why the server refused, from its own log, rather than only that it did.
      const errors = (await ppctl('logs', '-n', '400', '--json')).stdout.split('\n').filter((l) => /"level":(50|60)/.test(l));
      throw new Error(`${err.message}\n${errors.join('\n')}`);
    });
    await new Promise((r) => setTimeout(r, 300));
    const before = client.sent;
    const backup = await ppctl('backup', '--json', '--out', path.join(dir, 'under-load.tar'));
    const after = client.sent;
    sending = false;
    await load;
    t.equal(backup.code, 0, backup.stderr);
    const { file, manifest } = JSON.parse(backup.stdout) as { file: string; manifest: { counts: { events: number } } };
    const recorded = manifest.counts.events;
    t.ok(after > before, `events kept arriving during the backup (${after - before})`);
    t.ok(recorded >= before && recorded <= after, `the snapshot holds ${recorded}: at least the ${before} acknowledged before, at most the ${after} after`);
    t.ok((await status()).data!.events > recorded);

    const refused = await ppctl('restore', file);
    t.equal(refused.code, 1);
    t.match(refused.stderr, /is running .* Run again with --stop/);
    const restored = await ppctl('restore', file, '--stop');
    t.equal(restored.code, 0, restored.stderr);
    t.match(restored.stdout, new RegExp(`restored under-load\\.tar: pp ${v2} data of .*, ${recorded} events\\nstarted again; pp ${v2} is ready`));
    t.equal((await status()).data?.events, recorded, 'exactly the events in the snapshot');
  });

  await t.test(`rollback returns to ${v1}, restoring the backup taken before the upgrade`, async (t) => {
    const asked = await ppctl('rollback');
    t.equal(asked.code, 1);
    t.match(asked.stderr, new RegExp(`${v2} changed the database schema, so rolling back to ${v1} restores the backup taken before the upgrade .*Run again with --yes`));
    const res = await ppctl('rollback', '--yes');
    t.equal(res.code, 0, res.stderr);
    t.match(res.stdout, new RegExp(`rolled back pp ${v2} -> ${v1}; data restored from `));
    t.match(await status(), { version: v1, running_version: v1, ready: true, data: { events: 500 } });
    const none = await ppctl('rollback', '--yes');
    t.equal(none.code, 1);
    t.match(none.stderr, /there is no upgrade to roll back/);
  });

  await t.test('the supervisor restarts a crashed server; stop and status', async (t) => {
    const crashed = (await status()).server_pid;
    process.kill(crashed, 'SIGKILL');
    let s = await status();
    for (let i = 0; i < 60 && !(s.ready && s.server_pid !== crashed); i++) {
      await new Promise((r) => setTimeout(r, 500));
      s = await status();
    }
    t.match(s, { ready: true, running_version: v1 }, 'ready again after the crash');
    t.not(s.server_pid, crashed, 'a new server process');
    t.match((await ppctl('logs', '-n', '200', '--json')).stdout, /"msg":"the server exited unexpectedly; restarting in 1 s"/);
    t.equal((await status()).data?.events, 500, 'no acknowledged event lost to the crash');

    t.match((await ppctl('stop')).stdout, /^stopped$/m);
    t.match(await status(), { code: 3, running: false, ready: false });
    t.notOk(existsSync(path.join(dataDir, 'pp.pid')), 'the pid file is gone');
    t.match((await ppctl('stop')).stdout, /^not running$/m);
  });
});

// Backup and restore on a real server: a snapshot taken while events keep being written restores to
// exactly the count it recorded; snapshots taken during HTTP ingest fail no request; restore refuses a running server, a damaged file, a backup from a
// newer release and anything that is not a backup.

import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../server/ground/config.js';
import { createBackup } from '../../installer/backup.js';
import { restoreBackup } from '../../installer/restore.js';
import { createTar, extractTar, listTar } from '../../installer/archive.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { runPpctl, spawnServe } from '../support/ppctl.js';
import { tempDir } from '../support/tempDir.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { takeSnapshot } from '../../server/admin/snapshot.js';

const BATCH = 200;

/** Events written straight into the store in committed batches; returns how many are committed. */
function insertEvents(server: TestServer, projectId: number, n: number): Promise<void> {
  return server.running.services.events.write(
    `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, distinct_key, source)
     SELECT $1, gen_random_uuid(), now(), now(), 'load', 'user-' || range, md5_number_lower('user-' || range), 'server' FROM range($2)`,
    [projectId, n],
  );
}

async function eventCount(server: TestServer): Promise<number> {
  const [row] = await server.running.services.events.read('SELECT count(*) AS n FROM events');
  return Number(row!.n);
}

t.test('snapshots taken while HTTP ingest runs fail no ingest request', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);
  let sending = true;
  let accepted = 0;
  const refusals: string[] = [];
  const client = async (c: number) => {
    for (let n = 0; sending; n++) {
      const events = Array.from({ length: 20 }, (_, i) => ({ event: 'load', user_id: `user-${c}-${i}`, props: { n } }));
      const res = await ingestEvents(server, key, events);
      if (res.status === 202) accepted += 20;
      else refusals.push(`${res.status} ${res.text}`);
    }
  };
  const clients = Promise.all([0, 1, 2].map(client));
  const dir = await tempDir(t);
  // Each snapshot reads the applied migrations and attaches, copies and detaches a database, and
  // copies more the longer the clients send: twenty meet the group commits often enough.
  for (let i = 0; i < 20; i++) await takeSnapshot(server.running.services, path.join(dir, `s${i}`));
  sending = false;
  await clients;
  t.same(refusals, [], 'every request was acknowledged');
  t.ok(accepted > 0, `${accepted} events acknowledged during the snapshots`);
  t.equal(await eventCount(server), accepted, 'and each is stored once');
});

t.test('a backup taken while events are written restores to the count it recorded', async (t) => {
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const server = await startTestServer(t, { dataDir });
  const { project } = await createTenant(server);
  await insertEvents(server, project.id, 300_000);

  let committed = 300_000;
  let writing = true;
  const writer = (async () => {
    while (writing) {
      await insertEvents(server, project.id, BATCH);
      committed += BATCH;
    }
  })();
  await new Promise((r) => setTimeout(r, 50));
  const before = committed;
  const config = loadConfig({ env: {}, flags: { data_dir: dataDir } });
  const backup = await createBackup(config, { out: path.join(dir, 'load.tar') });
  const after = committed;
  writing = false;
  await writer;

  t.equal(backup.via, 'socket', 'the running server took the snapshot');
  t.ok(after > before, `writes went on during the backup (${after - before} events)`);
  const recorded = backup.manifest.counts.events;
  t.ok(recorded >= before && recorded <= after, `the snapshot (${recorded}) lies between what was committed before (${before}) and after (${after})`);
  t.equal(recorded % BATCH, 0, 'no batch is split: each commit is in or out as a whole');
  t.equal(backup.manifest.counts.users, 1);
  t.equal(statSync(backup.file).mode & 0o777, 0o600, 'the backup holds the secret: owner only');
  t.same((await listTar(backup.file)).sort(), ['data/events.duckdb', 'data/meta.sqlite', 'data/secret.key', 'manifest.json']);
  t.ok((await eventCount(server)) > recorded, 'the live store went on past the snapshot');

  await server.close();
  const result = await restoreBackup(config, backup.file);
  t.equal(result.manifest.counts.events, recorded);
  const again = await startTestServer(t, { dataDir });
  t.equal(await eventCount(again), recorded, 'the restored store holds exactly the recorded events');
  const users = again.running.services.meta.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
  t.equal(users.n, 1);
  t.same(
    readdirSync(path.join(dataDir, 'backups')).filter((f) => f.startsWith('.')),
    [],
    'no work folder or replaced files are left behind',
  );
});

t.test('ppctl restore refuses a running server, a damaged file, a newer release and a foreign tar', async (t) => {
  const dir = await tempDir(t);
  const dataDir = path.join(dir, 'data');
  const served = await spawnServe(['--data-dir', dataDir]);
  t.teardown(() => served.child.kill('SIGKILL'));
  const file = path.join(dir, 'good.tar');
  const made = await runPpctl(['backup', '--data-dir', dataDir, '--out', file]);
  t.equal(made.code, 0, made.stderr);
  t.match(made.stdout, /backup written to .*good\.tar\n.*taken from the running server/);

  const refused = await runPpctl(['restore', file, '--data-dir', dataDir]);
  t.equal(refused.code, 1);
  t.match(refused.stderr, /pp is running on .* \(pid \d+\); restoring would pull the data from under it\. Run again with --stop/);
  served.child.kill('SIGTERM');
  t.equal(await served.exited, 0);

  // Variants of the good backup, re-packed by hand.
  const work = path.join(dir, 'work');
  mkdirSync(work);
  await extractTar(file, work);
  const repack = async (name: string, change: (at: (f: string) => string) => void) => {
    const copy = path.join(dir, `${name}-src`);
    const at = (f: string) => path.join(copy, f);
    mkdirSync(at('data'), { recursive: true });
    for (const f of ['manifest.json', 'data/meta.sqlite', 'data/events.duckdb', 'data/secret.key']) writeFileSync(at(f), readFileSync(path.join(work, f)));
    change(at);
    const out = path.join(dir, `${name}.tar`);
    await createTar(copy, ['manifest.json', 'data'], out);
    return out;
  };

  const damaged = await repack('damaged', (at) => {
    const db = readFileSync(at('data/meta.sqlite'));
    db[db.length - 100] = db[db.length - 100]! ^ 0xff;
    writeFileSync(at('data/meta.sqlite'), db);
  });
  const newer = await repack('newer', (at) => {
    const manifest = JSON.parse(readFileSync(at('manifest.json'), 'utf8'));
    manifest.pp_version = '99.0.0';
    manifest.migrations.sqlite.push({ version: 9999, name: 'from_the_future', checksum: 'f'.repeat(64), applied_at: new Date().toISOString() });
    writeFileSync(at('manifest.json'), JSON.stringify(manifest));
  });
  const foreign = path.join(dir, 'foreign.tar');
  writeFileSync(path.join(dir, 'notes.txt'), 'hello');
  await createTar(dir, ['notes.txt'], foreign);

  const cases: Array<[string, string, RegExp]> = [
    ['damaged', damaged, /is damaged: meta\.sqlite has SHA-256 [0-9a-f]{12}…, the manifest says [0-9a-f]{12}…/],
    ['newer release', newer, /taken by pp 99\.0\.0 and cannot be restored by this release: applied migration 9999_from_the_future has no file any more/],
    ['foreign', foreign, /foreign\.tar is not a pp backup \(unexpected entry notes\.txt\)/],
    ['missing', path.join(dir, 'nope.tar'), /nope\.tar does not exist/],
  ];
  for (const [label, f, message] of cases) {
    const res = await runPpctl(['restore', f, '--data-dir', dataDir]);
    t.equal(res.code, 1, label);
    t.match(res.stderr, message, label);
  }

  const restored = await runPpctl(['restore', file, '--data-dir', dataDir]);
  t.equal(restored.code, 0, restored.stderr);
  t.match(restored.stdout, /restored good\.tar: pp \d+\.\d+\.\d+ data of .*, 0 events/);
});

// A full disk under the data folder, for real: the server runs in its own mount namespace with its
// data on a small tmpfs, which the test fills through /proc/<pid>/root. Ingest answers 503
// `storage_full` (the journal keeps no empty segment behind), readiness says the disk is full, a
// SQLite write that hits the limit is 503 `storage_full` too, and all of it recovers once space is
// freed, with the events answered before still there.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import path from 'node:path';
import t from 'tap';
import { PPCTL } from '../support/ppctl.js';
import { request } from '../support/testServer.js';
import { tempDir } from '../support/tempDir.js';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';

const canMount = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;

interface Served {
  child: ChildProcess;
  url: string;
  password: string;
}

/** `ppctl serve --embedded` with DATA on a tmpfs of `size` seen only by the server. */
async function serveOnTmpfs(dataDir: string, size: string): Promise<Served> {
  const script = 'mount -t tmpfs -o size="$2",mode=700 pp-test "$1" && shift 2 && exec "$@"';
  // Without tap's runner's hooks (when a file runs under it), which would write beside the checkout from inside the namespace.
  const child = spawn(
    'unshare',
    ['-m', 'sh', '-c', script, 'sh', dataDir, size, 'env', '-u', 'NODE_OPTIONS', process.execPath, PPCTL, 'serve', '--embedded', '--no-demo-data', '--port', '0', '--data-dir', dataDir],
    {
      env: Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))),
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const served: Partial<Served> = { child };
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const url = /pp is running at (https?:\/\/[^/\s]+)/.exec(line)?.[1];
      const password = /one-time password: (\S+)/.exec(line)?.[1];
      if (url) served.url = url;
      if (password) served.password = password;
      if (/demo project id/.test(line)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the server stopped (${code})`)));
  });
  return served as Served;
}

/** Writes zeros into `file` until the file system refuses. */
function fill(file: string): number {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(1024 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return written;
}

t.test('ingest and readiness on a full disk, and the way back', { skip: canMount ? false : 'needs root and mount namespaces' }, async (t) => {
  const dataDir = await tempDir(t, 'pp-disk-full-');
  const { child, url, password } = await serveOnTmpfs(dataDir, '96m');
  t.teardown(() => void child.kill('SIGKILL'));
  // The server's view of its data folder (its mount namespace), from here.
  const seen = (p = '') => path.join(`/proc/${child.pid}/root`, dataDir, p);
  const origin = { origin: url };
  const login = await request(url, 'POST', '/api/v1/auth/login', { body: { email: 'owner@pp.local', password }, headers: origin });
  t.equal(login.status, 200, login.text);
  const token = login.body.access_token as string;
  const key = await request(url, 'POST', '/api/v1/projects/1/keys', { token, body: { type: 'server', name: 'disk' } });
  t.equal(key.status, 201, key.text);
  const send = (n: number) =>
    request(url, 'POST', '/v1/track', { token: key.body.value, body: { events: Array.from({ length: n }, () => ({ event: 'full', uuid: randomUUID(), anonymous_id: 'd' })) } });
  t.equal((await send(50)).status, 202, 'accepted while there is room');

  const filled = fill(seen('filler'));
  t.ok(filled > 0, `filled the disk with ${filled} bytes`);

  const ready = await request(url, 'GET', '/api/v1/health?ready=1');
  t.equal(ready.status, 503);
  t.match(ready.body.error, { code: 'unavailable', message: 'the disk of the data folder is full: writes fail until space is freed', details: { storage: 'full' } });
  t.equal((await request(url, 'GET', '/api/v1/health')).status, 200, 'alive all the same');

  const refused = await send(500);
  t.equal(refused.status, 503, refused.text);
  t.equal(refused.body.error.code, 'storage_full');
  t.equal(refused.headers.get('retry-after'), '60');
  // The disk took the first bytes of that batch (the end of a page) and not the rest: it was not
  // acknowledged. The next batch opens a new segment, which the disk has no room for at all.
  const again = await send(500);
  t.equal(again.body.error?.code, 'storage_full', 'the next batch too');
  const journal = seen('ingest-journal');
  const empty = readdirSync(journal).filter((f) => statSync(path.join(journal, f)).size === 0);
  t.same(empty, [], 'no empty journal segment left by the failed write');

  rmSync(seen('filler'));
  t.equal((await request(url, 'GET', '/api/v1/health?ready=1')).status, 200, 'ready again once space is freed');
  t.equal((await send(50)).status, 202, 'and accepting events');
  const listed = await request(url, 'GET', '/api/v1/projects/1/events?event=full&limit=200', { token });
  t.equal(listed.status, 200, listed.text);
  t.equal(listed.body.items.length, 100, 'the events answered before the disk filled are all there');
});

t.test('a SQLite write that hits the limit is 503 storage_full, not 500', async (t) => {
  const server = await startTestServer(t);
  const tenant = await createTenant(server);
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  const meta = server.running.services.meta;
  // SQLite refuses to grow the database past max_page_count with SQLITE_FULL, as on a full disk.
  const pages = meta.pragma('page_count', { simple: true }) as number;
  meta.pragma(`max_page_count = ${pages}`);
  t.teardown(() => meta.pragma('max_page_count = 1073741823'));
  let res;
  for (let i = 0; i < 200; i++) {
    res = await server.request('POST', '/api/v1/projects', { token, body: { name: `project ${i} ${'x'.repeat(90)}`, timezone: 'UTC' } });
    if (res.status !== 201) break;
  }
  t.equal(res!.status, 503, res!.text);
  t.same(res!.body.error.code, 'storage_full');
  t.match(res!.body.error.message, /disk is full, so nothing was written/);
  t.ok(server.logs.some((l) => l.msg === 'the disk of the data folder is full; a request was refused'));
});

// A checkout's server, started the way `npm start` starts it (`ppctl serve --embedded`, data in
// ./.pp-data): status, doctor, logs, ingest retry and the mail outbox work on it from the same folder with no
// option, and with --data-dir from anywhere, as docs/configuration.md says.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import t from 'tap';
import { outputOf, PPCTL } from '../support/ppctl.js';
import { tempDir } from '../support/tempDir.js';

t.setTimeout(60_000);

const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PP_'))) as Record<string, string>;
const ppctl = (cwd: string, ...args: string[]) => outputOf(spawn(process.execPath, [PPCTL, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }));

/** `ppctl serve --embedded` in `cwd` (without demo data, whose requests would fill the log), once it listens: the process and its port. */
async function npmStartIn(cwd: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [PPCTL, 'serve', '--embedded', '--no-demo-data', '--port', '0'], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  // Read to the end: a full pipe would stop the server at its next log line.
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve, reject) => {
    lines.on('line', (line) => line.includes('"msg":"listening"') && resolve(Number(new URL(JSON.parse(line).url as string).port)));
    child.once('exit', () => reject(new Error('the server stopped before listening')));
  });
  return { child, port };
}

t.test('status, doctor, logs and mail outbox against an npm start server', async (t) => {
  const cwd = await tempDir(t, 'pp-checkout-');
  const { child, port } = await npmStartIn(cwd);
  t.teardown(() => void child.kill());
  const dataDir = path.join(cwd, '.pp-data');

  const status = await ppctl(cwd, 'status');
  t.equal(status.code, 0, status.stderr);
  t.match(status.stdout, new RegExp(`^pp \\S+ is running and ready at http://127\\.0\\.0\\.1:${port} \\(no service`));
  t.match(status.stdout, `1 projects, 1 users in ${dataDir}`);
  const elsewhere = await ppctl(path.dirname(cwd), 'status', '--json', '--data-dir', dataDir);
  t.equal(elsewhere.code, 0);
  t.match(JSON.parse(elsewhere.stdout), { running: true, ready: true, url: `http://127.0.0.1:${port}`, data_dir: dataDir, data: { projects: 1 } });

  const doctor = JSON.parse((await ppctl(cwd, 'doctor', '--json')).stdout) as Array<{ name: string; level: string; message: string }>;
  t.match(
    doctor.find((c) => c.name === 'service'),
    { level: 'ok', message: new RegExp(`ready at http://127\\.0\\.0\\.1:${port}`) },
  );
  t.match(
    doctor.find((c) => c.name === 'permissions'),
    { level: 'ok' },
  );
  t.match(
    doctor.find((c) => c.name === 'database duckdb'),
    { level: 'ok' },
  );

  const logs = await ppctl(cwd, 'logs', '-n', '500');
  t.equal(logs.code, 0, logs.stderr);
  t.match(logs.stdout, new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  INFO   listening  url=http://127\\.0\\.0\\.1:${port}`, 'm'), 'the listening line, readable');
  t.notMatch(logs.stdout, /^\{/m, 'no JSON line by default');
  // Migrations, start-up jobs and health polls follow the listening line: enough lines to reach it.
  const jsonLogs = await ppctl(cwd, 'logs', '-n', '500', '--json');
  t.match(jsonLogs.stdout, `"url":"http://127.0.0.1:${port}"`, 'the JSON lines with --json');

  // --follow prints what the server logs next: a request made once it has printed the last line.
  const follow = spawn(process.execPath, [PPCTL, 'logs', '-f', '-n', '1'], { cwd, env, stdio: ['ignore', 'pipe', 'inherit'] });
  t.teardown(() => void follow.kill());
  const followed = createInterface({ input: follow.stdout! });
  const lineWith = (text: string) => new Promise<string>((resolve) => followed.on('line', (line) => line.includes(text) && resolve(line)));
  const probe = lineWith('/api/v1/health?probe=followed');
  await lineWith('Z  ');
  t.equal((await fetch(`http://127.0.0.1:${port}/api/v1/health?probe=followed`)).status, 200);
  t.match(await probe, / {2}INFO {3}request {2}GET \/api\/v1\/health\?probe=followed 200 [\d.]+ ms {2}\[[\w-]+\]$/);

  const retry = await ppctl(cwd, 'ingest', 'retry', '--json');
  t.equal(retry.code, 0, retry.stderr);
  t.same(JSON.parse(retry.stdout), { batches: 0, events: 0, failed: [] }, 'ingest retry: nothing set aside');

  const outbox = await ppctl(cwd, 'mail', 'outbox');
  t.equal(outbox.code, 0, outbox.stderr);
  t.equal(outbox.stdout, 'The outbox is empty.\n');

  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const stopped = await ppctl(cwd, 'status');
  t.equal(stopped.code, 3);
  t.match(stopped.stdout, `no pp server is running on ${dataDir}`);
  const noLogs = await ppctl(cwd, 'logs');
  t.equal(noLogs.code, 1);
  t.match(noLogs.stderr, `ppctl: no server is running on ${dataDir}; a server started with npm start or ppctl serve keeps its last log lines in memory, and ppctl logs shows them while it runs`);
});

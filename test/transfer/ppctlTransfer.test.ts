// `ppctl import` and `ppctl export`: through the admin socket of a running server and directly on a
// stopped installation; JSON progress lines when standard output is not a terminal; an import
// killed halfway resumes from its checkpoint when the same command runs again, and stores each
// event once.

import t from 'tap';
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { PPCTL, runPpctl } from '../support/ppctl.js';
import { countRows } from '../support/ingest.js';
import { IMPORT_BATCH_ROWS } from '../../server/transfer/importJob.js';

// Five batches: the first progress line with stored events comes after the first, so the kill lands
// with most of the file still to read.
const EVENTS = 5 * IMPORT_BATCH_ROWS;
const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** A PostHog batch export of `n` page views of 1,000 people over 30 days. */
async function writePosthog(file: string, n: number): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const ts = new Date(Date.UTC(2024, 0, 1) + (i % 30) * 86_400_000 + i * 7).toISOString().replace('T', ' ').replace('Z', '');
    const line = `{"uuid":"${uuidOf(i)}","event":"$pageview","distinct_id":"user-${i % 1000}","timestamp":"${ts}","properties":{"$current_url":"https://shop.example/p/${i % 50}","n":${i}}}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

t.test('ppctl import and export', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-transfer-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const server = await startTestServer(t, { dataDir });
  const { project } = await createTenant(server);
  const small = path.join(dataDir, 'small.jsonl');
  await writeFile(small, '{"uuid":"ffffffff-0000-4000-8000-000000000001","event":"signup","distinct_id":"u1","timestamp":"2024-02-01 10:00:00"}\nnot json\n');

  t.test('through the socket of a running server', async (t) => {
    const res = await runPpctl(['import', small, '--data-dir', dataDir, '--project', String(project.id), '--json']);
    t.equal(res.code, 0, res.stderr);
    const lines = res.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const last = lines.at(-1);
    t.match(last, { state: 'succeeded', format: 'posthog', stored: 1, rejected: 1, rejections: [{ file: 'small.jsonl', line: 2, reason: 'the line is not valid JSON' }] });
    t.ok(
      lines.slice(0, -1).every((l) => typeof l.events_per_second === 'number' && 'eta_seconds' in l),
      'progress lines carry the rate and ETA',
    );
    const text = await runPpctl(['import', small, '--data-dir', dataDir, '--project', String(project.id)]);
    t.match(text.stdout, /import \d+ succeeded: 0 stored, 1 duplicates skipped, 1 refused of 2 records\n {2}small.jsonl line 2: the line is not valid JSON/);
    const missing = await runPpctl(['import', path.join(dataDir, 'nope.csv'), '--data-dir', dataDir, '--project', String(project.id)]);
    t.equal(missing.code, 1);
    t.match(missing.stderr, /nope.csv does not exist/);
    const badProject = await runPpctl(['import', small, '--data-dir', dataDir, '--project', '99999']);
    t.equal(badProject.code, 1);
    t.match(badProject.stderr, /project 99999 does not exist/);
  });

  t.test('killed halfway on a stopped installation, then resumed', async (t) => {
    await server.close();
    const big = path.join(dataDir, 'big.jsonl');
    await writePosthog(big, EVENTS);
    const args = [PPCTL, 'import', big, '--data-dir', dataDir, '--project', String(project.id), '--format', 'posthog', '--json'];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let firstId: number | undefined;
    let storedAtKill = 0;
    for await (const line of createInterface({ input: child.stdout! })) {
      const p = JSON.parse(line) as { id: number; state: string; stored: number };
      firstId = p.id;
      if (p.state === 'running' && p.stored > 0) {
        storedAtKill = p.stored;
        child.kill('SIGKILL');
        break;
      }
    }
    await once(child, 'close');
    t.ok(storedAtKill > 0 && storedAtKill < EVENTS, `killed after ${storedAtKill} of ${EVENTS} events`);

    const again = await runPpctl(args.slice(1));
    t.equal(again.code, 0, again.stderr);
    const result = JSON.parse(again.stdout.trim().split('\n').at(-1)!);
    t.equal(result.id, firstId, 'the same job resumed');
    t.equal(result.state, 'succeeded');
    t.equal(result.rejected, 0);
    // Rows of the batch stored just before the kill may be read again: they count as duplicates.
    t.equal(result.stored + result.duplicates, EVENTS);
    t.ok(result.duplicates < 2 * IMPORT_BATCH_ROWS, 'at most the batches after the checkpoint are read again');

    const out = path.join(dataDir, 'out.ndjson');
    const exported = await runPpctl(['export', '--data-dir', dataDir, '--project', String(project.id), '--output', out, '--json']);
    t.equal(exported.code, 0, exported.stderr);
    t.match(JSON.parse(exported.stdout), { state: 'succeeded', events: EVENTS + 1, output: out });
    const text = await readFile(out, 'utf8');
    const uuids = new Set(
      text
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uuid: string }).uuid),
    );
    t.equal(uuids.size, EVENTS + 1, 'every event once');
    const restarted = await startTestServer(t, { dataDir });
    t.equal(await countRows(restarted, 'events', project.id), EVENTS + 1);
  });
});

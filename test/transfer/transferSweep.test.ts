// The sweep of transfer files, with the server's clock moved forward: an export's file stays for
// download for 7 days after it finished, then the export answers as expired (its download 410) and
// the sweep removes the file; the uploads of cancelled and failed imports go at the next sweep, and
// uploads no import names once a day old. A live export's file, the uploads of a running and a
// queued import, and a fresh upload, stay.

import t from 'tap';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { createIngestKey } from '../support/ingest.js';
import { getJob } from '../../server/store/jobs.js';
import { queueTransferSweep, sweepTransfers, TRANSFER_SWEEP } from '../../server/transfer/transferSweep.js';
import { exportsPath, importsPath, jobEnded, upload } from './transferSupport.js';

const T0 = new Date('2026-05-01T10:00:00Z');
const DAY = 86_400_000;

t.test('transfer files are swept once past keeping, and the records say so', async (t) => {
  const server = await startTestServer(t, { now: T0 });
  const services = server.running.services;
  const { owner, org, project } = await createTenant(server);
  let token = await accessTokenFor(server, owner, org);
  const exportsDir = path.join(server.dataDir, 'exports');
  const uploadsDir = path.join(server.dataDir, 'imports');
  const files = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

  /** Queues a sweep and waits for it; answers what it removed. */
  const sweep = async () => {
    queueTransferSweep(services);
    const { id } = services.meta.prepare('SELECT max(id) AS id FROM jobs WHERE kind = ?').get(TRANSFER_SWEEP) as { id: number };
    const job = await eventually(
      'the sweep',
      async () => getJob(services.meta, id)!,
      (j) => j.state === 'succeeded' || j.state === 'failed',
    );
    t.equal(job.state, 'succeeded', job.error ?? '');
    return job.result;
  };
  const exportNow = async () => {
    const started = await server.request('POST', exportsPath(project.id), { token, body: { format: 'csv' } });
    t.equal(started.status, 202, started.text);
    return jobEnded(server, token, `${exportsPath(project.id)}/${started.body.id}`);
  };
  const readExport = async (id: number) => (await server.request('GET', `${exportsPath(project.id)}/${id}`, { token })).body;
  const readImport = async (id: number) => (await server.request('GET', `${importsPath(project.id)}/${id}`, { token })).body;

  const ingest = await server.request('POST', '/v1/track', {
    token: createIngestKey(server, project).value,
    body: { events: [{ event: 'signup', user_id: 'u1', ts: '2026-04-30T08:00:00Z' }] },
  });
  t.equal(ingest.status, 202);

  // At T0: an export, two cancelled imports (one of them while queued), a failed one, one that
  // succeeded, and an upload left without its import.
  const first = await exportNow();
  t.match(first, { state: 'succeeded', file_expires_at: new Date(Date.parse(first.finished_at) + 7 * DAY).toISOString(), file_removed_at: null });
  t.equal((await fetch(server.url + first.download_url)).status, 200);
  const lines = Array.from({ length: 300_000 }, (_, i) => JSON.stringify({ event: 'view', distinct_id: `u${i % 100}`, timestamp: '2026-04-01 10:00:00', properties: { i } })).join('\n');
  const cancelled = await upload(server, token, project.id, lines, 'posthog');
  // An organization runs one job at a time: the second import waits for the first.
  const waiting = await upload(server, token, project.id, lines.split('\n', 5).join('\n'), 'posthog');
  t.ok(['queued', 'running'].includes((await readImport(cancelled.id)).state), 'the first import is under way');
  t.equal((await readImport(waiting.id)).state, 'queued', 'the second waits');
  t.same(await sweepTransfers(services), { exports: 0, uploads: 0 }, 'a sweep while they are live removes nothing');
  t.equal(files(uploadsDir).length, 2, 'both uploads stay');
  t.same([(await readImport(cancelled.id)).file_removed_at, (await readImport(waiting.id)).file_removed_at], [null, null]);
  for (const job of [waiting, cancelled]) t.equal((await server.request('DELETE', `${importsPath(project.id)}/${job.id}`, { token })).status, 200);
  for (const job of [cancelled, waiting]) t.equal((await jobEnded(server, token, `${importsPath(project.id)}/${job.id}`)).state, 'cancelled');
  // A CSV record that never ends (an unterminated quote past the record limit) fails the import.
  const failed = await upload(server, token, project.id, `uuid,event\n"${'x'.repeat(1_200_000)}`, 'posthog');
  t.equal((await jobEnded(server, token, `${importsPath(project.id)}/${failed.id}`)).state, 'failed');
  // One that succeeded removes its upload itself, and says when.
  const done = await jobEnded(server, token, `${importsPath(project.id)}/${(await upload(server, token, project.id, lines.split('\n', 3).join('\n'), 'posthog')).id}`);
  t.match(done, { state: 'succeeded', lines: 3, file_removed_at: done.finished_at });
  const stray = `upload-${T0.getTime()}-0a0a0a0a0a0a`;
  writeFileSync(path.join(uploadsDir, stray), 'left by a stop between the upload and its import');
  t.equal(files(uploadsDir).length, 4, 'the cancelled and failed uploads and the stray one wait on disk');

  await t.test("six days on: the ended imports' uploads and the day-old stray go; the export stays", async (t) => {
    server.clock.advance(6 * DAY);
    token = await accessTokenFor(server, owner, org);
    const fresh = `upload-${server.clock.now().getTime()}-0b0b0b0b0b0b`;
    writeFileSync(path.join(uploadsDir, fresh), 'arriving now');
    t.same(await sweep(), { exports: 0, uploads: 4 });
    t.same(files(uploadsDir), [fresh], 'only the upload still arriving stays');
    t.equal(files(exportsDir).length, 1, 'the export file stays');
    const now = server.clock.now().toISOString();
    t.match(await readImport(cancelled.id), { state: 'cancelled', file_removed_at: now });
    t.match(await readImport(waiting.id), { state: 'cancelled', file_removed_at: now });
    t.match(await readImport(failed.id), { state: 'failed', file_removed_at: now });
    t.match(await readImport(done.id), { state: 'succeeded', file_removed_at: done.finished_at }, 'the succeeded import keeps its own time');
    const kept = await readExport(first.id);
    t.match(kept, { state: 'succeeded', file_removed_at: null });
    t.equal((await fetch(server.url + kept.download_url)).status, 200, 'still downloads');
    t.same(await sweep(), { exports: 0, uploads: 0 }, 'a sweep again removes nothing');
  });

  await t.test('past seven days: the export is expired, its download 410, and its file goes; a newer export stays', async (t) => {
    const second = await exportNow();
    t.equal(second.state, 'succeeded');
    server.clock.set(new Date(Date.parse(first.file_expires_at) - 60_000));
    token = await accessTokenFor(server, owner, org);
    const lastLink = (await readExport(first.id)).download_url;
    t.ok(lastLink, 'a minute before it expires, the export still gives a link');
    server.clock.advance(2 * 60_000);
    const expired = await readExport(first.id);
    t.match(expired, { state: 'expired', download_url: null, expires_at: null, events: 1, file_removed_at: null });
    const gone = await fetch(server.url + lastLink);
    t.equal(gone.status, 410, 'a link signed before it expired answers 410');
    t.match(await gone.json(), { error: { code: 'export_expired', message: /expired/ } });
    t.ok(existsSync(path.join(exportsDir, `export-${first.id}.csv`)), 'the file waits for the sweep');

    t.same(await sweep(), { exports: 1, uploads: 1 }, 'the expired export and the upload now a day old');
    t.same(files(exportsDir), [`export-${second.id}.csv`], "only the newer export's file stays");
    t.same(files(uploadsDir), []);
    t.match(await readExport(first.id), { state: 'expired', file_removed_at: server.clock.now().toISOString() });
    const listed = (await server.request('GET', exportsPath(project.id), { token })).body.items;
    t.same(
      listed.map((e: { id: number; state: string }) => [e.id, e.state]),
      [
        [second.id, 'succeeded'],
        [first.id, 'expired'],
      ],
    );
    const live = await readExport(second.id);
    t.equal((await fetch(server.url + live.download_url)).status, 200, 'the newer export downloads');
  });
});

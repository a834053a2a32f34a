// The group-commit writer and what hangs off it: group sizes, answers that do not wait for the
// load while reads do, a batch the database refuses, the flush at shutdown, the event bus never
// waiting for (or failing because of) a subscriber, and the doctor's reader of refused attempts.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { countRows, createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { GroupWriter, ingestWriter, MAX_GROUP_ROWS } from '../../server/ingest/groupWriter.js';
import { IngestJournal, journalFiles } from '../../server/ingest/journal.js';
import { adminCommand } from '../../server/admin/adminCommands.js';
import { formatStatus, type InstallationStatus } from '../../installer/installationStatus.js';
import { normalizeEvent } from '../../server/ingest/normalizeEvent.js';
import { EventBus, eventBus, type CommittedEvent } from '../../server/ingest/eventBus.js';
import { readRejectedAttempts } from '../../server/ingest/rejections.js';
import { ServiceUnavailableError } from '../../server/ground/errors.js';

t.test('group commit', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const services = server.running.services;
  const writer = ingestWriter(services);
  const rows = (n: number) =>
    Array.from({ length: n }, () =>
      normalizeEvent({ event: 'bulk', uuid: randomUUID(), anonymous_id: 'w' }, { projectId: project.id, receivedAt: services.clock.now(), source: 'server', sdk: null, keyId: 'testkey1' }),
    );

  t.test(`a group holds at most ${MAX_GROUP_ROWS} events`, async (t) => {
    const before = { ...writer.stats };
    await Promise.all([writer.submit({ events: rows(3000), rejections: [] }), writer.submit({ events: rows(1500), rejections: [] }), writer.submit({ events: rows(3000), rejections: [] })]);
    await writer.loaded();
    t.equal(writer.stats.stored - before.stored, 7500);
    t.equal(writer.stats.groups - before.groups, 2, '3000 + 1500 together, the next 3000 alone');
    t.equal(await countRows(server, 'events', project.id), 7500);
  });

  t.test('requests are answered once journaled; a read waits for what was answered before it', async (t) => {
    const key = createIngestKey(server, project);
    let release!: () => void;
    const held = writer.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => ingestEvents(server, key, [{ event: 'journaled', anonymous_id: `j${i}` }])));
    t.same(
      answers.map((a) => a.status),
      Array(5).fill(202),
      'answered while the writer is held',
    );
    t.equal(writer.backlog, 5, 'not loaded yet');
    t.same(writer.journalState(), { backlog_events: 5, set_aside_batches: 0 });
    let counted: number | undefined;
    const reading = readTable(server, `SELECT count(*) AS n FROM events WHERE project_id = $1 AND event = 'journaled'`, [project.id]).then((r) => (counted = Number(r[0]!.n)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.equal(counted, undefined, 'the read waits for the load');
    const ping = await Promise.race([services.events.ping().then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 1000))]);
    t.equal(ping, 'answered', 'a readiness check does not wait for it');
    release();
    await held;
    await reading;
    t.equal(counted, 5, 'and then sees every answered event');
  });

  t.test('a read waits for the load at most readWaitMs, then answers from what is loaded', async (t) => {
    const journaled = new GroupWriter(services, eventBus(services), {
      maxGroupRows: 5000,
      dedupWindowMs: 3_600_000,
      filterCapacity: 1000,
      journal: IngestJournal.open(path.join(server.dataDir, 'wait-journal'), services.log),
      readWaitMs: 100,
    });
    t.teardown(() => journaled.close());
    t.equal(journaled.readBarrier(), undefined, 'nothing outstanding: no wait at all');
    let release!: () => void;
    const held = journaled.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
    await journaled.submit({ events: rows(3), rejections: [] });
    const started = performance.now();
    await journaled.readBarrier();
    const waited = performance.now() - started;
    t.ok(waited >= 90 && journaled.backlog === 3, `gave up after ${waited.toFixed(0)} ms with the batch still waiting`);
    release();
    await held;
    await journaled.loaded();
    t.equal(journaled.backlog, 0);
  });

  t.test('a batch the database refuses fails alone, not the batches grouped with it', async (t) => {
    const [poison] = rows(1);
    poison!.uuid = 'urn:uuid:0b6c2f9e-3d0b-4a59-9f53-2f4f8a2b1c11';

    // Without a journal the request waits for the commit and is answered 503.
    const direct = new GroupWriter(services, eventBus(services), { maxGroupRows: 5000, dedupWindowMs: 3_600_000, filterCapacity: 1000 });
    t.teardown(() => direct.close());
    const [good, bad] = await Promise.allSettled([direct.submit({ events: rows(2), rejections: [] }), direct.submit({ events: [poison!], rejections: [] })]);
    t.match(good, { status: 'fulfilled' });
    t.match(bad, { status: 'rejected', reason: { status: 503, code: 'unavailable' } });
    t.ok(server.logs.some((l) => l.msg === 'ingest commit failed'));

    // A journaled batch was answered already: after the retries it is set aside for the operator.
    const dir = path.join(server.dataDir, 'poison-journal');
    const journaled = new GroupWriter(services, eventBus(services), {
      maxGroupRows: 5000,
      dedupWindowMs: 3_600_000,
      filterCapacity: 1000,
      journal: IngestJournal.open(dir, services.log),
      retryMs: 1,
    });
    t.teardown(() => journaled.close());
    const storedBefore = await countRows(server, 'events', project.id);
    await Promise.all([journaled.submit({ events: rows(2), rejections: [] }), journaled.submit({ events: [poison!], rejections: [] })]);
    await journaled.loaded();
    t.equal(await countRows(server, 'events', project.id), storedBefore + 2, 'the good batch is stored');
    t.equal(journaled.stats.setAside, 1);
    t.equal(server.logs.filter((l) => l.msg === 'loading a journaled batch failed; trying again').length, 4);
    t.ok(server.logs.some((l) => l.msg === 'a journaled batch could not be loaded; set aside'));
    t.ok(
      readdirSync(dir).some((f) => f.startsWith('unloaded-')),
      'the batch is kept next to the journal',
    );
    t.same(journaled.journalState(), { backlog_events: 0, set_aside_batches: 1 });

    // The server's own writer is what `ppctl status` reports on.
    const stats = (await adminCommand('data.stats')!(services, {})) as NonNullable<InstallationStatus['data']>;
    t.same(stats.ingest, { backlog_events: 0, set_aside_batches: 0 });
    const status: InstallationStatus = {
      version: '1.0.0',
      manager: 'process',
      running: true,
      ready: true,
      running_version: '1.0.0',
      manager_pid: 1,
      server_pid: 2,
      uptime_s: 3,
      url: 'http://127.0.0.1:8080',
      base_url: 'http://127.0.0.1:8080',
      config_dir: '/etc/pp',
      data_dir: '/var/lib/pp',
      prefix: '/opt/pp',
      releases: ['1.0.0'],
      last_upgrade: null,
      error: null,
      data: { ...stats, ingest: { backlog_events: 120, set_aside_batches: 1 } },
    };
    t.match(
      formatStatus(status),
      /\n {2}ingest: {4}120 events waiting to be loaded; 1 batch set aside in \/var\/lib\/pp\/ingest-journal \(ppctl ingest retry loads them again; see docs\/ingestion\.md\)\n/,
    );

    // `ppctl ingest retry`: a batch set aside while the disk was full loads once there is room; the
    // refused one stays; a damaged file is named; empty files a full disk left are not batches.
    const recovered = IngestJournal.open(dir, services.log);
    recovered.setAside({ seq: 900, batch: { events: rows(3), rejections: [] } });
    writeFileSync(path.join(dir, 'unloaded-0000000000000901.jnl'), Buffer.from('not a record'));
    writeFileSync(path.join(dir, 'unloaded-0000000000000902.jnl'), '');
    writeFileSync(path.join(dir, 'unloaded-0000000000000903.jnl.partial'), 'half');
    t.same(journalFiles(dir).setAside, 3, 'the empty file is not counted');
    IngestJournal.open(dir, services.log);
    t.notOk(existsSync(path.join(dir, 'unloaded-0000000000000902.jnl')), 'opening the journal removes the empty file');
    t.notOk(existsSync(path.join(dir, 'unloaded-0000000000000903.jnl.partial')), 'and the unfinished one');
    const before = await countRows(server, 'events', project.id);
    const retried = await journaled.retrySetAside();
    t.equal(retried.batches, 1);
    t.equal(retried.events, 3);
    t.same(retried.failed.map((f) => f.file).sort(), ['unloaded-0000000000000002.jnl', 'unloaded-0000000000000901.jnl'], 'the refused batch and the damaged file stay');
    t.match(retried.failed.find((f) => f.file.endsWith('901.jnl'))?.error, /damaged/);
    t.equal(await countRows(server, 'events', project.id), before + 3, 'the set-aside events are stored');
    t.notOk(existsSync(path.join(dir, 'unloaded-0000000000000900.jnl')), 'and their file is gone');
    t.equal((await journaled.retrySetAside()).events, 0, 'a second retry loads nothing twice');
  });

  t.test('a throwing subscriber and a slow one do not hold up ingest', async (t) => {
    const bus = eventBus(services);
    const stopThrowing = bus.subscribe(() => {
      throw new Error('subscriber bug');
    });
    const got: CommittedEvent[] = [];
    const stopSmall = bus.subscribe((events) => got.push(...events), { maxPending: 10 });
    t.teardown(() => (stopThrowing(), stopSmall()));
    const key = createIngestKey(server, project);
    const res = await ingestEvents(
      server,
      key,
      Array.from({ length: 50 }, (_, i) => ({ event: 'bus', anonymous_id: `b${i}` })),
    );
    t.equal(res.status, 202);
    await writer.loaded();
    await new Promise((resolve) => setImmediate(resolve));
    t.equal(got.length, 10, 'a subscriber that falls behind keeps the newest events');
    t.same(
      got.map((e) => e.anonymous_id),
      Array.from({ length: 10 }, (_, i) => `b${40 + i}`),
    );
    t.ok(
      server.logs.some((l) => l.msg === 'event bus subscriber failed'),
      'the failure is logged',
    );
    t.ok(server.logs.some((l) => l.msg === 'event bus subscriber fell behind; oldest events dropped'));
  });

  t.test('the bus filters by project and stops delivering after unsubscribe', async (t) => {
    const bus = new EventBus(services.log);
    const mine: string[] = [];
    const stop = bus.subscribe((events) => mine.push(...events.map((e) => e.uuid)), { projectId: 1 });
    const event = (projectId: number, uuid: string) => ({ project_id: projectId, uuid }) as CommittedEvent;
    bus.publish([event(1, 'a'), event(2, 'b')]);
    await new Promise((resolve) => setImmediate(resolve));
    stop();
    bus.publish([event(1, 'c')]);
    await new Promise((resolve) => setImmediate(resolve));
    t.same(mine, ['a']);
    t.equal(bus.subscriberCount, 0);
  });

  t.test('refused attempts: newest first, filtered, in pages', async (t) => {
    const key = createIngestKey(server, project, { name: 'doctor' });
    const sdk = { 'x-pp-tracker': 'pp-node/9.9.9' };
    await ingestEvents(server, key, [{ event: 'a' }, { event: 'b' }, { anonymous_id: 'x' }], { headers: sdk });
    server.clock.advance(1000);
    await ingestEvents(server, key, [{ event: 'c' }], { headers: sdk });
    const q = { projectId: project.id, from: new Date(server.clock.now().getTime() - 60_000), to: new Date(server.clock.now().getTime() + 1), limit: 2 };
    const first = await readRejectedAttempts(services, q);
    t.same(
      first.map((r) => [r.event, r.code]),
      [
        ['c', 'identity_required'],
        [null, 'event_required'],
      ],
    );
    t.match(first[0], { operation: 'track', key_id: key.prefix, source: 'server', sdk_name: 'pp-node', sdk_version: '9.9.9', event_index: 0 });
    const second = await readRejectedAttempts(services, { ...q, after: first[1] });
    t.same(
      second.map((r) => r.event),
      ['b', 'a'],
    );
    t.same(
      (await readRejectedAttempts(services, { ...q, event: 'b' })).map((r) => r.event),
      ['b'],
    );
    t.same(await readRejectedAttempts(services, { ...q, sdkName: 'pp-browser' }), []);
  });
});

t.test('pending writes are flushed at shutdown', async (t) => {
  const dataDir = await tempDir(t, 'pp-flush-');
  const server = await startTestServer(t, { dataDir });
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);
  const writer = ingestWriter(server.running.services);
  // A job that holds the writer until released, so the answered requests are sure to wait for their load.
  let release!: () => void;
  const held = writer.exclusive(() => new Promise<void>((resolve) => (release = resolve)));
  const inFlight = Array.from({ length: 20 }, (_, i) => ingestEvents(server, key, [{ event: 'late', uuid: randomUUID(), anonymous_id: `s${i}` }]));
  for (let i = 0; i < 500 && writer.queued < 20; i++) await new Promise((resolve) => setTimeout(resolve, 2));
  t.equal(writer.queued, 20, 'twenty batches wait for the writer');
  // Work no request waits for (as a background job would submit): only the shutdown hook flushes it.
  const background = writer.submit({
    events: [normalizeEvent({ event: 'background', anonymous_id: 'bg' }, { projectId: project.id, receivedAt: server.clock.now(), source: 'server', sdk: null, keyId: key.prefix })],
    rejections: [],
  });
  const closing = server.close();
  release();
  const answers = await Promise.all(inFlight.map((p) => p.then((r) => r.status)));
  await Promise.all([closing, held, background]);
  t.same(answers, Array(20).fill(202), 'answered');
  await t.rejects(writer.submit({ events: [], rejections: [] }), new ServiceUnavailableError('the server is shutting down; retry the request'), 'a stopped writer refuses work');
  const reopened = await startTestServer(t, { dataDir });
  t.equal(await countRows(reopened, 'events', project.id), 21, 'all of it is stored');
});

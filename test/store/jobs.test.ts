// The jobs runner shares itself between organizations: a job of one organization that takes long
// does not hold back another organization's job, an organization's jobs run one at a time, and a
// job over its time budget is stopped (its engine statement interrupted, its transaction rolled
// back) and fails saying so. Under a wall clock that steps, jobs still run once, in queue order.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { seedEvents } from '../support/seedEvents.js';
import { createProject } from '../../server/accounts/projects.js';
import { getJob, jobRunner, kickJobs, queueJob, type Job } from '../../server/store/jobs.js';

const CONFIRM = { 'x-confirm-purge': 'true' };

t.test("one organization's long job does not delay another organization's", async (t) => {
  const server = await startTestServer(t);
  const { services } = server.running;
  const a = await createTenant(server);
  const b = await createTenant(server);
  const aSecond = createProject(services.meta, { orgId: a.org.id, name: 'A two', timezone: 'UTC' }, services.clock.now());
  await seedEvents(server, b.project.id, [{ event: 'pp.form_start', ts: '2026-10-20T10:00:05Z', anonymous_id: 'v', props: { form: 'form#f', field: 'email' } }]);

  // Org A's job waits on the test: it stands for a materialization that takes minutes.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const started: number[] = [];
  jobRunner(services).register('test_hold', async (job: Job) => {
    started.push(job.id);
    await held;
    return { held: true };
  });
  const first = queueJob(services.meta, 'test_hold', a.project.id, services.clock.now());
  const second = queueJob(services.meta, 'test_hold', aSecond.id, services.clock.now());
  kickJobs(services);
  await eventually(
    'the first job of org A to start',
    async () => started,
    (s) => s.length > 0,
  );

  // Org B's purge, queued after both of org A's jobs, runs and finishes meanwhile.
  const token = await accessTokenFor(server, b.owner, b.org);
  const purge = await server.request('POST', `/api/v1/projects/${b.project.id}/behavior/forms/purge`, { token, headers: CONFIRM });
  t.equal(purge.status, 202);
  const done = await eventually(
    "org B's purge to finish",
    async () => (await server.request('GET', `/api/v1/projects/${b.project.id}/behavior/forms/purge/${purge.body.id}`, { token })).body,
    (job) => job.state === 'succeeded' || job.state === 'failed',
    5_000,
  );
  t.match(done, { state: 'succeeded', deleted_events: 1 }, "org B's job ran while org A's was held");
  t.same(started, [first], "org A's second job waits for its first: one job per organization at a time");
  t.equal(getJob(services.meta, second)?.state, 'queued');

  release();
  await jobRunner(services).kick();
  t.same(started, [first, second]);
  t.match(getJob(services.meta, first), { state: 'succeeded', result: { held: true } });
  t.match(getJob(services.meta, second), { state: 'succeeded' });
});

t.test('a job over its time budget is interrupted, fails with the reason, and frees the engine', async (t) => {
  const server = await startTestServer(t);
  const { services } = server.running;
  const { project } = await createTenant(server);
  await services.events.write('CREATE TABLE budget_probe (n INTEGER)');
  // A write turn that would run for minutes: a transaction left open by the interrupt would keep
  // its row, and hold the writer from everyone after it.
  jobRunner(services).register(
    'test_slow_write',
    () =>
      services.events.useWriter(async (conn) => {
        await conn.run('BEGIN TRANSACTION');
        try {
          await conn.run('INSERT INTO budget_probe VALUES (1)');
          await conn.run('SELECT count(*) FROM range(1000000000000) a');
          await conn.run('COMMIT');
        } catch (err) {
          await conn.run('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    { budgetMs: 300 },
  );
  jobRunner(services).register('test_slow_read', () => services.events.read('SELECT count(*) FROM range(1000000000000) a'), { budgetMs: 300 });
  const write = queueJob(services.meta, 'test_slow_write', project.id, services.clock.now());
  const read = queueJob(services.meta, 'test_slow_read', null, services.clock.now());
  const started = Date.now();
  await jobRunner(services).kick();
  t.ok(Date.now() - started < 10_000, 'both jobs were stopped well before their statements could finish');
  for (const id of [write, read]) {
    const job = getJob(services.meta, id)!;
    t.equal(job.state, 'failed');
    t.equal(job.error, 'the job ran over its time budget of 300 ms and was stopped; what it had not committed was rolled back');
  }
  t.same(await services.events.read('SELECT count(*)::INTEGER AS n FROM budget_probe'), [{ n: 0 }], 'the interrupted transaction was rolled back');
  await services.events.useWriter(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    await conn.run('INSERT INTO budget_probe VALUES (2)');
    await conn.run('COMMIT');
  });
  t.same(await services.events.read('SELECT n FROM budget_probe'), [{ n: 2 }], 'the writer takes a new transaction after it');
});

const DAY = 24 * 60 * 60_000;

t.test('a clock stepped back or forward by a day: every job runs once, in queue order', async (t) => {
  const server = await startTestServer(t);
  const { meta, clock } = server.running.services;
  const runner = jobRunner(server.running.services);
  const ran: number[] = [];
  let gate: Promise<void> = Promise.resolve();
  runner.register('clock-step', async (job) => {
    await gate;
    ran.push(job.id);
    return { at: clock.now().toISOString() };
  });

  let open!: () => void;
  gate = new Promise((resolve) => (open = resolve));
  const first = queueJob(meta, 'clock-step', null, clock.now());
  void runner.kick();
  server.clock.step(-DAY);
  const second = queueJob(meta, 'clock-step', null, clock.now());
  server.clock.step(2 * DAY);
  const third = queueJob(meta, 'clock-step', null, clock.now());
  open();
  await runner.kick();
  await runner.kick();

  t.same(ran, [first, second, third], 'each once, in the order queued, though the second is stamped a day before the first');
  for (const id of [first, second, third]) {
    const job = getJob(meta, id)!;
    t.equal(job.state, 'succeeded', `job ${id}`);
    t.equal(job.attempts, 1, `job ${id} ran once`);
  }
});

// The job queue under a wall clock that steps: jobs are taken in the order they were queued and
// run exactly once, whether the clock stepped back or forward between queueing and running.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { getJob, jobRunner, queueJob } from '../../server/store/jobs.js';

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

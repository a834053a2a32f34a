// The durable outbox: messages are committed before delivery, delivered over SMTP to a real sink,
// retried with backoff when the server refuses (the clock decides when a retry is due), given up after
// the last attempt, kept sealed at rest, and listed by `ppctl mail outbox`.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant, uniqueEmail } from '../support/factories.js';
import { linkToken, startSmtpSink } from '../support/smtpSink.js';
import { runPpctl } from '../support/ppctl.js';
import { MAX_ATTEMPTS, retryDelayMs } from '../../server/mail/deliveryAttempts.js';
import { mailWorkerOf } from '../../server/mail/mailWorker.js';

interface Row {
  id: number;
  status: string;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  body_sealed: string | null;
  sent_at: string | null;
  created_at: string;
}

function outboxRows(server: TestServer): Row[] {
  return server.running.services.meta.prepare('SELECT * FROM outbox ORDER BY id').all() as Row[];
}

async function until<T>(probe: () => T | undefined, label: string): Promise<T> {
  for (let i = 0; i < 250; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${label}`);
}

async function kick(server: TestServer): Promise<void> {
  await mailWorkerOf(server.running.services)!.kick();
}

t.test('retry delays: 30 s, doubling, at most an hour', async (t) => {
  t.same(
    [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => retryDelayMs(n) / 1000),
    [30, 60, 120, 240, 480, 960, 1920, 3600, 3600],
  );
});

t.test('a refused delivery is retried when due, then delivered, and its body erased', async (t) => {
  const sink = await startSmtpSink(t, { refuseFirst: 1 });
  const server = await startTestServer(t, { settings: { smtp_url: sink.url } });
  const { owner } = await createTenant(server);
  t.equal((await server.request('POST', '/api/v1/auth/password/forgot', { body: { email: owner.email } })).status, 204);

  const failed = await until(() => outboxRows(server).find((r) => r.attempts === 1), 'the first attempt');
  t.equal(failed.status, 'queued');
  t.equal(sink.refused, 1);
  t.match(failed.last_error, /451/);
  t.equal(Date.parse(failed.next_attempt_at) - Date.parse(failed.created_at), 30_000, 'next attempt in 30 s');
  t.equal(sink.messages.length, 0);

  server.clock.advance(29_000);
  await kick(server);
  t.equal(outboxRows(server)[0]!.attempts, 1, 'not due yet: nothing is attempted');

  server.clock.advance(1_000);
  await kick(server);
  const sent = outboxRows(server)[0]!;
  t.equal(sent.status, 'sent');
  t.equal(sent.attempts, 2);
  t.equal(sent.body_sealed, null, 'the body (with its link) is erased once delivered');
  t.equal(sent.sent_at, server.clock.now().toISOString());
  t.equal(sink.messages.length, 1);
  t.ok(linkToken(sink.messages[0]!, '/reset-password'));
});

t.test(`after ${MAX_ATTEMPTS} refused attempts a message is marked failed`, async (t) => {
  const sink = await startSmtpSink(t, { refuseFirst: 1000 });
  const server = await startTestServer(t, { settings: { smtp_url: sink.url } });
  const { owner } = await createTenant(server);
  await server.request('POST', '/api/v1/auth/password/forgot', { body: { email: owner.email } });
  await until(() => outboxRows(server).find((r) => r.attempts === 1), 'the first attempt');
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    server.clock.advance(retryDelayMs(attempt));
    await kick(server);
  }
  const row = outboxRows(server)[0]!;
  t.equal(row.status, 'failed');
  t.equal(row.attempts, MAX_ATTEMPTS);
  t.equal(row.body_sealed, null);
  t.equal(sink.refused, MAX_ATTEMPTS);
  server.clock.advance(24 * 3600_000);
  await kick(server);
  t.equal(sink.refused, MAX_ATTEMPTS, 'no attempt after giving up');
});

t.test('without SMTP the message waits, sealed, and ppctl mail outbox lists it', async (t) => {
  const server = await startTestServer(t);
  const { owner, org } = await createTenant(server);
  const invitee = uniqueEmail('waiting');
  const token = await accessTokenFor(server, owner, org);
  t.equal((await server.request('POST', `/api/v1/orgs/${org.id}/invites`, { token, body: { email: invitee, role: 'viewer' } })).status, 201);
  await kick(server);
  const [row] = outboxRows(server);
  t.equal(row!.status, 'queued');
  t.equal(row!.attempts, 0, 'nothing is attempted without smtp_url');
  t.match(row!.body_sealed, /^v1\./);
  t.notMatch(row!.body_sealed, /invite/, 'the body is sealed at rest');

  const json = await runPpctl(['mail', 'outbox', '--json', '--data-dir', server.dataDir]);
  t.equal(json.code, 0, json.stderr);
  const listed = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  t.same(listed, [
    {
      id: row!.id,
      kind: 'invite',
      to: invitee,
      subject: 'Invitation to Test org on pp',
      status: 'queued',
      attempts: 0,
      next_attempt_at: row!.next_attempt_at,
      last_error: null,
      created_at: row!.created_at,
      sent_at: null,
    },
  ]);
  const text = await runPpctl(['mail', 'outbox', '--data-dir', server.dataDir]);
  t.equal(text.code, 0);
  t.match(text.stdout, new RegExp(`^#${row!.id}  queued  invite  to ${invitee}  "Invitation to Test org on pp"`, 'm'));
});

t.test('ppctl mail outbox works on a stopped installation too', async (t) => {
  const server = await startTestServer(t);
  const { owner } = await createTenant(server);
  await server.request('POST', '/api/v1/auth/password/forgot', { body: { email: owner.email } });
  await until(() => outboxRows(server)[0], 'the queued message');
  await server.close();
  const res = await runPpctl(['mail', 'outbox', '--json', '--data-dir', server.dataDir]);
  t.equal(res.code, 0, res.stderr);
  t.equal(JSON.parse(res.stdout)[0].kind, 'password_reset');
});

// Marketing email in the cloud edition, docs/payments.md: the trial reminders three days and one
// day before a trial ends (once each, per trial end, delivered over real SMTP with List-Unsubscribe
// headers), and the opt-out by the emailed token — read, unsubscribe (also one-click), subscribe
// again — with every bad token the same 422 and no token in the log.

import t from 'tap';
import { createHmac } from 'node:crypto';
import { startTestServer, type TestServer } from '../support/testServer.js';
import type { SinkMessage } from '../support/smtpSink.js';
import { freshIp, mailTo, signUp, startCloud, type Cloud } from '../auth/signupKit.js';
import { unsubscribeToken } from '../../server/billing/unsubscribe.js';
import { runTrialReminders } from '../../server/billing/trialReminders.js';
import { activateTrial } from '../../server/billing/subscriptions.js';

const UNSUBSCRIBE = '/api/v1/email/unsubscribe';
const RESUBSCRIBE = '/api/v1/email/resubscribe';
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const INVALID = {
  code: 'validation_failed',
  message: 'invalid unsubscribe token',
  details: { field: 'token', errors: [{ field: 'token', message: 'invalid unsubscribe token' }] },
};

interface Owner {
  userId: number;
  orgId: number;
  email: string;
}

async function owner(cloud: Cloud, ip = freshIp()): Promise<Owner> {
  const res = await signUp(cloud, {}, ip);
  return { userId: res.body.user.id, orgId: res.body.org.id, email: res.body.user.email };
}

const tokenOf = (server: TestServer, userId: number) => unsubscribeToken(server.running.services, userId);
const q = (token: string) => `${UNSUBSCRIBE}?token=${encodeURIComponent(token)}`;
const masked = (email: string) => `${email[0]}***${email.slice(email.indexOf('@'))}`;

function optedOutAt(server: TestServer, userId: number): string | null {
  return (server.running.services.meta.prepare('SELECT marketing_opt_out_at AS at FROM users WHERE id = ?').get(userId) as { at: string | null }).at;
}

function trialEnd(server: TestServer, orgId: number): Date {
  return new Date((server.running.services.meta.prepare('SELECT trial_ends_at AS at FROM subscriptions WHERE org_id = ?').get(orgId) as { at: string }).at);
}

function reminders(server: TestServer, orgId: number): string[] {
  return (server.running.services.meta.prepare('SELECT kind FROM trial_reminders WHERE org_id = ? ORDER BY sent_at, kind').all(orgId) as Array<{ kind: string }>).map((r) => r.kind);
}

function queuedReminders(server: TestServer, email: string): number {
  return (server.running.services.meta.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'trial_reminder' AND to_address = ?").get(email) as { n: number }).n;
}

/** A header of the delivered message, unfolded. */
function headerOf(message: SinkMessage, name: string): string | undefined {
  const head = message.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:[ \\t]*(.*)$`, 'im').exec(head)?.[1]?.trim();
}

t.test('outside the cloud edition the routes do not exist', async (t) => {
  const server = await startTestServer(t);
  for (const [method, path, body] of [
    ['GET', `${UNSUBSCRIBE}?token=1.x`, undefined],
    ['POST', `${UNSUBSCRIBE}?token=1.x`, undefined],
    ['POST', RESUBSCRIBE, { token: '1.x' }],
  ] as const) {
    const res = await server.request(method, path, { body });
    t.equal(res.status, 404, `${method} ${path}`);
    t.equal(res.body.error.code, 'not_found');
  }
});

t.test('the token opens the opt-out of its own user', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;
  const ada = await owner(cloud);
  const bob = await owner(cloud);
  const token = tokenOf(server, ada.userId);
  t.match(token, new RegExp(`^${ada.userId}\\.[A-Za-z0-9_-]{43}$`));

  t.same((await server.request('GET', q(token))).body, { subscribed: true, email_masked: masked(ada.email) });

  const first = await server.request('POST', q(token));
  t.equal(first.status, 200);
  t.same(first.body, { unsubscribed: true, email_masked: masked(ada.email) });
  const at = server.clock.now().toISOString();
  t.equal(optedOutAt(server, ada.userId), at);
  t.equal(optedOutAt(server, bob.userId), null, 'nobody else');

  server.clock.advance(MINUTE_MS);
  const again = await server.request('POST', UNSUBSCRIBE, { body: { token } });
  t.same(again.body, { unsubscribed: true, email_masked: masked(ada.email) }, 'again, with the token in a JSON body');
  t.equal(optedOutAt(server, ada.userId), at, 'the first time is kept');
  t.same((await server.request('GET', q(token))).body, { subscribed: false, email_masked: masked(ada.email) });

  const back = await server.request('POST', RESUBSCRIBE, { body: { token } });
  t.equal(back.status, 200);
  t.same(back.body, { subscribed: true, email_masked: masked(ada.email) });
  t.equal(optedOutAt(server, ada.userId), null);
  t.same((await server.request('GET', q(token))).body.subscribed, true);

  // RFC 8058: a mail client posts the form to the List-Unsubscribe URL.
  const oneClick = await server.request('POST', q(token), { raw: 'List-Unsubscribe=One-Click', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  t.equal(oneClick.status, 200, oneClick.text);
  t.same(oneClick.body, { unsubscribed: true, email_masked: masked(ada.email) });
  t.equal(optedOutAt(server, ada.userId), server.clock.now().toISOString());
});

t.test('every bad token is the same 422', async (t) => {
  const cloud = await startCloud(t);
  const { server } = cloud;
  const ada = await owner(cloud);
  const bob = await owner(cloud);
  const mac = tokenOf(server, ada.userId).split('.')[1]!;
  const flipped = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
  const otherInstallation = createHmac('sha256', Buffer.alloc(32, 7)).update(`unsubscribe:${ada.userId}`).digest('base64url');
  const bad: Array<[string, string]> = [
    ['garbage', 'not-a-token'],
    ['no signature', `${ada.userId}.`],
    ['a forged signature', `${ada.userId}.${flipped}`],
    ["another user's id with this signature", `${bob.userId}.${mac}`],
    ["another installation's token", `${ada.userId}.${otherInstallation}`],
    ['a deleted user', tokenOf(server, 987_654)],
    ['a leading zero', `0${ada.userId}.${mac}`],
  ];
  for (const [label, token] of bad) {
    for (const res of [
      await server.request('GET', q(token)),
      await server.request('POST', q(token)),
      await server.request('POST', UNSUBSCRIBE, { body: { token } }),
      await server.request('POST', RESUBSCRIBE, { body: { token } }),
    ]) {
      t.equal(res.status, 422, label);
      t.same(res.body.error, INVALID, label);
    }
  }
  const missing = await server.request('POST', UNSUBSCRIBE);
  t.same(missing.body.error, INVALID, 'no token at all');
  const missingGet = await server.request('GET', UNSUBSCRIBE);
  t.equal(missingGet.status, 422);
  t.equal(missingGet.body.error.details.field, 'token');
  t.equal(optedOutAt(server, ada.userId), null);
  t.equal(optedOutAt(server, bob.userId), null);
});

t.test('each client address has a budget', async (t) => {
  const cloud = await startCloud(t, { 'rate_limit.auth_ip_per_minute': 3 });
  const { server } = cloud;
  const ada = await owner(cloud);
  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
  const ip = freshIp();
  for (let i = 0; i < 3; i++) t.equal((await server.request('GET', q(tokenOf(server, ada.userId)), from(ip))).status, 200);
  const limited = await server.request('POST', q(tokenOf(server, ada.userId)), from(ip));
  t.equal(limited.status, 429);
  t.equal(limited.body.error.code, 'rate_limited');
  t.ok(Number(limited.headers.get('retry-after')) > 0);
  t.equal((await server.request('POST', q('guess.1'), from(ip))).status, 429, 'bad tokens spend the budget first');
  t.equal((await server.request('GET', q(tokenOf(server, ada.userId)), from(freshIp()))).status, 200, 'another address has its own');
  server.clock.advance(MINUTE_MS);
  t.equal((await server.request('GET', q(tokenOf(server, ada.userId)), from(ip))).status, 200, 'a minute later');
});

t.test('trial reminders: three days and one day before the end, once each, to owners who did not unsubscribe', async (t) => {
  const cloud = await startCloud(t);
  const { server, sink } = cloud;
  const services = server.running.services;
  const ada = await owner(cloud);
  const bob = await owner(cloud);
  const ip = freshIp();
  const cyd = await owner(cloud, ip);
  const held = await owner(cloud, ip);
  t.equal(services.meta.prepare('SELECT status FROM subscriptions WHERE org_id = ?').pluck().get(held.orgId), 'pending_review', 'a second signup from one address is held');
  t.equal((await server.request('POST', q(tokenOf(server, bob.userId)))).status, 200, 'bob unsubscribes');

  const ends = trialEnd(server, ada.orgId);
  t.equal(ends.toISOString(), '2026-11-16T12:00:00.000Z', 'a 14-day trial from the signup');
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'nothing is due at the start');

  server.clock.set(new Date(ends.getTime() - 3 * DAY_MS - MINUTE_MS));
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'a minute before three days are left');

  server.clock.set(new Date(ends.getTime() - 3 * DAY_MS));
  t.same(runTrialReminders(services), { reminded: 3, emails: 2 }, 'ada, bob and cyd are due; bob unsubscribed');
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'once');
  server.clock.set(new Date(ends.getTime() - 2 * DAY_MS));
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'not again two days before');

  server.clock.set(new Date(ends.getTime() - DAY_MS));
  t.same(runTrialReminders(services), { reminded: 3, emails: 2 }, 'the last day');
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'once');
  server.clock.set(ends);
  t.same(runTrialReminders(services), { reminded: 0, emails: 0 }, 'not after the end');

  t.same(reminders(server, ada.orgId), ['3d', '1d']);
  t.same(reminders(server, bob.orgId), ['3d', '1d'], 'recorded even when no owner may be emailed');
  t.same(reminders(server, cyd.orgId), ['3d', '1d']);
  t.same(reminders(server, held.orgId), [], 'a held trial is not reminded');
  t.equal(queuedReminders(server, ada.email), 2);
  t.equal(queuedReminders(server, bob.email), 0, 'bob gets none');

  const first = await sink.waitFor((m) => m.to.includes(ada.email) && m.subject.startsWith('Your pp trial'));
  t.equal(first.subject, 'Your pp trial ends on 16 November 2026 at 12:00 UTC');
  t.match(first.text, 'ends on 16 November 2026 at 12:00 UTC');
  t.match(first.text, /\r?\nhttps:\/\/pp\.example\.com\/org\/billing\r?\n/);
  const token = decodeURIComponent(/^https:\/\/pp\.example\.com\/unsubscribe\?token=(\S+)$/m.exec(first.text)![1]!);
  t.equal(token, tokenOf(server, ada.userId));
  t.equal(headerOf(first, 'List-Unsubscribe'), `<https://pp.example.com${q(token)}>`);
  t.equal(headerOf(first, 'List-Unsubscribe-Post'), 'List-Unsubscribe=One-Click');
  const adaReminders = () => sink.messages.filter((m) => m.to.includes(ada.email) && m.subject.startsWith('Your pp trial'));
  await sink.waitFor(() => adaReminders().length === 2);
  t.equal(sink.messages.filter((m) => m.to.includes(bob.email)).length, 1, 'bob got his verification email only');

  // A held trial activated later runs its own full length and is reminded for it.
  server.clock.set(new Date(ends.getTime() + DAY_MS));
  const restarted = activateTrial(services, held.orgId, 'review');
  const heldEnds = new Date(restarted.trial_ends_at!);
  server.clock.set(new Date(heldEnds.getTime() - DAY_MS + MINUTE_MS));
  t.same(runTrialReminders(services), { reminded: 1, emails: 1 }, 'first seen in its last day: only that reminder');
  t.same(reminders(server, held.orgId), ['1d']);

  // A trial whose end moves (extended by an operator) is reminded for its new end.
  const extended = new Date(server.clock.now().getTime() + 2 * DAY_MS).toISOString();
  services.meta.prepare("UPDATE subscriptions SET status = 'trialing', trial_ends_at = ? WHERE org_id = ?").run(extended, ada.orgId);
  t.same(runTrialReminders(services), { reminded: 1, emails: 1 });
  t.same(reminders(server, ada.orgId), ['3d', '1d', '3d']);
});

t.test('the emailed link unsubscribes, and no token reaches the log', async (t) => {
  const cloud = await startCloud(t);
  const { server, sink } = cloud;
  const ada = await owner(cloud);
  server.clock.set(new Date(trialEnd(server, ada.orgId).getTime() - DAY_MS));
  t.same(runTrialReminders(server.running.services), { reminded: 1, emails: 1 });
  const message = await sink.waitFor((m) => m.to.includes(ada.email) && m.subject.startsWith('Your pp trial'));
  t.equal((await mailTo(sink, ada.email, 2)).subject, message.subject);

  // What a mail client does with the headers: post the form to the List-Unsubscribe URL.
  const url = new URL(/^<(.*)>$/.exec(headerOf(message, 'List-Unsubscribe')!)![1]!);
  const token = url.searchParams.get('token')!;
  const res = await server.request('POST', url.pathname + url.search, {
    raw: headerOf(message, 'List-Unsubscribe-Post'),
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `https://pp.example.com/unsubscribe?token=${encodeURIComponent(token)}` },
  });
  t.same(res.body, { unsubscribed: true, email_masked: masked(ada.email) });
  t.not(optedOutAt(server, ada.userId), null);

  // The next trial reminder skips the address.
  server.clock.advance(12 * 3_600_000);
  const ends = new Date(server.clock.now().getTime() + DAY_MS - MINUTE_MS).toISOString();
  server.running.services.meta.prepare('UPDATE subscriptions SET trial_ends_at = ? WHERE org_id = ?').run(ends, ada.orgId);
  t.same(runTrialReminders(server.running.services), { reminded: 1, emails: 0 });

  await server.request('GET', q(token));
  const signature = token.split('.')[1]!;
  t.ok(
    server.logs.some((l) => l.msg === 'request' && String((l.req as { url: string }).url).startsWith(`${UNSUBSCRIBE}?token=`)),
    'the requests were logged',
  );
  t.notMatch(JSON.stringify(server.logs), signature, 'the token is never logged');
});

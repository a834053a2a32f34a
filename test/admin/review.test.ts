// `ppctl review`: the queue of held trials (oldest first, with what each signup came with), and
// approving or rejecting one through the running server's admin socket; the owners get an email
// (delivered to a real SMTP sink) and the decision is in the audit log. Unknown organizations and
// organizations that do not wait are refused with exit code 1.

import t from 'tap';
import { runPpctl } from '../support/ppctl.js';
import { addMember } from '../support/factories.js';
import { getOrganization } from '../../server/accounts/organizations.js';
import { beginSignup, companyEmail, freshIp, post, signUp, startCloud } from '../auth/signupKit.js';

const DAY = 24 * 60 * 60_000;

t.test('ppctl review', async (t) => {
  const cloud = await startCloud(t);
  const { server, sink } = cloud;
  const meta = server.running.services.meta;
  const ppctl = (...args: string[]) => runPpctl(['review', ...args, '--data-dir', server.dataDir]);

  // Oldest first: a trial held by the risk rules (two signups from one address), an hour later a
  // domain review, and a running trial that is not in the queue.
  const ip = freshIp();
  await beginSignup(cloud, {}, ip);
  const held = await signUp(cloud, { org_name: 'Held by SMS', device_fp: 'device-7' }, ip);
  server.clock.advance(60 * 60_000);
  const domain = `review-${process.pid}.test`;
  await signUp(cloud, { email: companyEmail('first', domain) });
  const pending = await beginSignup(cloud, { email: companyEmail('second', domain), org_name: 'Second Engines' });
  await post(server, '/api/v1/auth/register/verify', { email: pending.email, code: pending.code }, pending.ip);
  const reviewed = await post(server, '/api/v1/auth/register/domain-review', { token: pending.token, company_note: 'We are the\nsecond team' }, pending.ip);
  t.equal(reviewed.status, 201);
  const heldId: number = held.body.org.id;
  const reviewedId: number = reviewed.body.org.id;
  const createdAt = (id: number) => getOrganization(meta, id)!.created_at;

  t.test('list: the waiting organizations, oldest first', async (t) => {
    const json = await ppctl('list', '--json');
    t.equal(json.code, 0, json.stderr);
    t.same(JSON.parse(json.stdout), [
      {
        org_id: heldId,
        name: 'Held by SMS',
        owner_email: held.body.user.email,
        created_at: createdAt(heldId),
        trial_state: 'sms_required',
        risk_rules: ['ip_repeat'],
        company_note: null,
        signup_ip: true,
        signup_device: true,
      },
      {
        org_id: reviewedId,
        name: 'Second Engines',
        owner_email: pending.email,
        created_at: createdAt(reviewedId),
        trial_state: 'pending_review',
        risk_rules: [],
        company_note: 'We are the\nsecond team',
        signup_ip: true,
        signup_device: false,
      },
    ]);
    const text = await ppctl('list');
    t.equal(text.code, 0, text.stderr);
    t.equal(
      text.stdout,
      [
        `#${heldId}  Held by SMS  owner ${held.body.user.email}  created ${createdAt(heldId)}  sms_required`,
        '      risk rules: ip_repeat; signup address recorded, device recorded',
        `#${reviewedId}  Second Engines  owner ${pending.email}  created ${createdAt(reviewedId)}  pending_review`,
        '      risk rules: none; signup address recorded, device none',
        '      company note: "We are the\\nsecond team"',
        '',
      ].join('\n'),
    );
  });

  t.test('approve: the trial starts now and every owner is emailed', async (t) => {
    const coOwner = await addMember(server, getOrganization(meta, heldId)!, 'owner', { password: null });
    const res = await ppctl('approve', String(heldId), '--note', 'known customer');
    t.equal(res.code, 0, res.stderr);
    const endsAt = new Date(server.clock.now().getTime() + 14 * DAY).toISOString();
    t.equal(res.stdout, `Trial of organization ${heldId} (Held by SMS) approved; the trial runs until ${endsAt}.\n  emailed: ${held.body.user.email}, ${coOwner.email}\n`);
    t.match(meta.prepare('SELECT * FROM subscriptions WHERE org_id = ?').get(heldId), {
      status: 'trialing',
      trial_state: 'trialing',
      activated_via: 'review',
      review_note: 'known customer',
      trial_started_at: server.clock.now().toISOString(),
      trial_ends_at: endsAt,
    });
    for (const owner of [held.body.user.email, coOwner.email]) {
      const mail = await sink.waitFor((m) => m.to.includes(owner) && m.subject === 'Your pp trial for Held by SMS is active');
      t.match(mail.text, 'It runs 14 days from now, until 16 Nov 2026 (UTC).', owner);
      t.match(mail.text, 'https://pp.example.com', owner);
    }
    t.same(meta.prepare("SELECT org_id, actor_user_id, action, target, outcome, details FROM audit_log WHERE action LIKE 'org.trial.%'").all(), [
      { org_id: heldId, actor_user_id: null, action: 'org.trial.approve', target: 'Held by SMS', outcome: 'success', details: '{"note":"known customer"}' },
    ]);
    t.same(
      (JSON.parse((await ppctl('list', '--json')).stdout) as Array<{ org_id: number }>).map((r) => r.org_id),
      [reviewedId],
      'no longer waiting',
    );
  });

  t.test('reject: the organization may still choose a plan, and its owner is told where', async (t) => {
    const res = await ppctl('reject', String(reviewedId));
    t.equal(res.code, 0, res.stderr);
    t.equal(res.stdout, `Trial of organization ${reviewedId} (Second Engines) rejected.\n  emailed: ${pending.email}\n`);
    t.match(meta.prepare('SELECT * FROM subscriptions WHERE org_id = ?').get(reviewedId), { status: 'cancelled', trial_state: 'rejected', activated_via: null });
    const mail = await sink.waitFor((m) => m.to.includes(pending.email) && m.subject === 'About your pp trial for Second Engines');
    t.match(mail.text, 'we cannot offer it a free trial');
    t.match(mail.text, /^https:\/\/pp\.example\.com\/org\/billing\r?$/m);
    const list = await ppctl('list');
    t.equal(list.stdout, 'No trial waits for review.\n');
  });

  t.test('an organization that does not wait, or does not exist, is refused with exit code 1', async (t) => {
    const outbox = (meta.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
    const cases: Array<[string[], string]> = [
      [['approve', String(heldId)], `ppctl: organization ${heldId} (Held by SMS) is not waiting for review: its subscription is trialing (trial_state trialing)\n`],
      [['reject', String(heldId)], `ppctl: organization ${heldId} (Held by SMS) is not waiting for review: its subscription is trialing (trial_state trialing)\n`],
      [['approve', String(reviewedId)], `ppctl: organization ${reviewedId} (Second Engines) is not waiting for review: its subscription is cancelled (trial_state rejected)\n`],
      [['approve', '999999'], 'ppctl: organization 999999 does not exist\n'],
      [['reject', 'acme'], 'ppctl: organization acme does not exist\n'],
    ];
    for (const [args, message] of cases) {
      const res = await ppctl(...args);
      t.equal(res.code, 1, args.join(' '));
      t.equal(res.stderr, message, args.join(' '));
    }
    t.equal((meta.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n, outbox, 'nobody was emailed');
    t.equal((meta.prepare("SELECT count(*) AS n FROM audit_log WHERE action LIKE 'org.trial.%'").get() as { n: number }).n, 2, 'nothing more recorded');
  });
});

// Trial-first signup, the rules applied when an address is proven: the domain rule (409
// domain_has_org, then request-invite or domain-review), the risk rules that hold a new trial for an
// SMS confirmation, and the sign-in group's rate limits on the whole verify family.

import t, { type Test } from 'tap';
import { TEST_PASSWORD } from '../support/factories.js';
import { beginSignup, companyEmail, count, freeEmail, freshIp, mailTo, post, signUp, startCloud, subscriptionOf, type Cloud, type Pending } from './signupKit.js';

const verify = (cloud: Cloud, p: Pending) => post(cloud.server, '/api/v1/auth/register/verify', { email: p.email, code: p.code }, p.ip);
const inviteRequest = (cloud: Cloud, p: Pending) => post(cloud.server, '/api/v1/auth/register/request-invite', { email: p.email, code: p.code }, p.ip);
const inviteRequestTo = (cloud: Cloud, owner: string) => cloud.sink.waitFor((m) => m.to.includes(owner) && m.subject.includes(' asks to join '));
const review = (cloud: Cloud, p: Pending, note?: string) => post(cloud.server, '/api/v1/auth/register/domain-review', { token: p.token, company_note: note }, p.ip);

t.test('the domain rule', async (t) => {
  const cloud = await startCloud(t);
  const domain = `engines-${process.pid}.test`;
  const first = await signUp(cloud, { email: companyEmail('ada', domain), org_name: 'Analytical Engines' });

  t.test('verify on a company domain with an organization: 409 with masked hints, and the signup stays alive', async (t) => {
    const pending = await beginSignup(cloud, { email: companyEmail('charles', domain) });
    const users = count(cloud.server, 'users');
    const res = await verify(cloud, pending);
    t.equal(res.status, 409);
    t.same(res.body.error, {
      code: 'domain_has_org',
      message: 'an organization on pp already uses this email domain; ask its owner for an invitation or request a review',
      details: { org_name_masked: 'A***', owner_email_masked: `a***@${domain}` },
    });
    t.equal(count(cloud.server, 'users'), users, 'nothing created');
    t.equal((await verify(cloud, pending)).status, 409, 'the same code still opens the signup');
  });

  t.test('request-invite: 202, the owner is emailed, nothing is created and the signup is spent', async (t) => {
    const pending = await beginSignup(cloud, { email: companyEmail('charles', domain) });
    t.equal((await verify(cloud, pending)).status, 409);
    const users = count(cloud.server, 'users');
    const res = await inviteRequest(cloud, pending);
    t.equal(res.status, 202);
    t.same(res.body, { owner_notified: true });
    const note = await inviteRequestTo(cloud, first.body.user.email);
    t.equal(note.subject, `${pending.email} asks to join Analytical Engines on pp`);
    t.match(note.text, 'https://pp.example.com/org');
    t.equal(count(cloud.server, 'users'), users);
    t.equal((await verify(cloud, pending)).status, 422, 'spent');
    t.equal((await inviteRequest(cloud, pending)).status, 422, 'spent for request-invite too');
  });

  t.test('domain-review: 201, signed in, pending_review; company_note at most 1000 characters', async (t) => {
    const pending = await beginSignup(cloud, { email: companyEmail('babbage', domain), org_name: 'Difference Engines' });
    const long = await review(cloud, pending, 'n'.repeat(1001));
    t.equal(long.status, 422);
    t.equal(long.body.error.details.field, 'company_note');
    const res = await review(cloud, pending, 'n'.repeat(1000));
    t.equal(res.status, 201);
    t.match(res.headers.getSetCookie()[0], /^pp_rt=/);
    t.same(res.body.org, { id: res.body.org.id, name: 'Difference Engines', role: 'owner', trial_state: 'pending_review' });
    t.same(subscriptionOf(cloud.server, res.body.org.id), { status: 'pending_review', trial_state: 'pending_review' });
    const stored = cloud.server.running.services.meta.prepare('SELECT company_note FROM org_signups WHERE org_id = ?').get(res.body.org.id) as { company_note: string };
    t.equal(stored.company_note.length, 1000);
    t.equal((await review(cloud, pending)).status, 422, 'spent');
  });

  t.test('request-invite goes to the owner of the newest organization on the domain', async (t) => {
    const pending = await beginSignup(cloud, { email: companyEmail('lovelace', domain) });
    t.equal((await inviteRequest(cloud, pending)).status, 202);
    const newest = cloud.server.running.services.meta
      .prepare("SELECT u.email FROM organizations o JOIN memberships m ON m.org_id = o.id AND m.role = 'owner' JOIN users u ON u.id = m.user_id ORDER BY o.id DESC LIMIT 1")
      .get() as { email: string };
    t.match(newest.email, /^babbage-/);
    const note = await inviteRequestTo(cloud, newest.email);
    t.match(note.subject, 'asks to join Difference Engines on pp');
  });

  t.test('a subdomain is the same company: 409 like the domain itself, and from a subdomain too', async (t) => {
    for (const email of [companyEmail('mail', `mail.${domain}`), companyEmail('eu', `eu.mail.${domain}`), companyEmail('UPPER', `Mail.${domain.toUpperCase()}`)]) {
      const res = await verify(cloud, await beginSignup(cloud, { email }));
      t.equal(res.status, 409, email);
      t.equal(res.body.error.code, 'domain_has_org', email);
    }
    const sub = `engines-sub-${process.pid}.test`;
    await signUp(cloud, { email: companyEmail('ops', `ops.${sub}`) });
    t.equal((await verify(cloud, await beginSignup(cloud, { email: companyEmail('hq', sub) }))).status, 409, 'a member at a subdomain holds the domain');
  });

  t.test('under a shared suffix each registrable domain is its own company', async (t) => {
    const a = `engines-${process.pid}.co.uk`;
    await signUp(cloud, { email: companyEmail('ada', a) });
    t.equal((await verify(cloud, await beginSignup(cloud, { email: companyEmail('mail', `mail.${a}`) }))).status, 409, 'a subdomain of a.co.uk');
    t.equal((await verify(cloud, await beginSignup(cloud, { email: companyEmail('bob', `looms-${process.pid}.co.uk`) }))).status, 201, 'b.co.uk is another company');
    t.equal((await verify(cloud, await beginSignup(cloud, { email: companyEmail('eve', `x${domain}`) }))).status, 201, 'a name ending in the domain is not a subdomain');
  });

  t.test('a free provider has no company: no 409 however many users share it', async (t) => {
    const one = await signUp(cloud, { email: freeEmail() });
    t.equal(one.body.org.trial_state, 'trialing');
    const two = await signUp(cloud, { email: freeEmail() });
    t.equal(two.status, 201);
  });

  t.test('without a domain conflict both answer 422 and leave the signup untouched', async (t) => {
    const pending = await beginSignup(cloud);
    for (const res of [await inviteRequest(cloud, pending), await review(cloud, pending, 'hello')]) {
      t.equal(res.status, 422);
      t.same(res.body.error.details, { field: 'email', errors: [{ field: 'email', message: 'no organization on pp uses this email domain; verify the address instead' }] });
    }
    t.equal((await verify(cloud, pending)).status, 201, 'the code still works');
  });

  t.test('request-invite and domain-review with a bad proof are the uniform 422', async (t) => {
    const pending = await beginSignup(cloud, { email: companyEmail('x', domain) });
    const wrong = { email: pending.email, code: pending.code === '000000' ? '000001' : '000000' };
    for (const path of ['/api/v1/auth/register/request-invite', '/api/v1/auth/register/domain-review']) {
      const res = await post(cloud.server, path, wrong);
      t.equal(res.status, 422, path);
      t.equal(res.body.error.message, 'invalid or expired verification code', path);
    }
  });
});

async function expectHeld(t: Test, res: { status: number; body: any }, cloud: Cloud, label: string): Promise<void> {
  t.equal(res.status, 201, `${label}: still created`);
  t.equal(res.body.org.trial_state, 'sms_required', `${label}: trial_state`);
  t.same(subscriptionOf(cloud.server, res.body.org.id), { status: 'pending_review', trial_state: 'sms_required' }, `${label}: subscription`);
  t.equal((await cloud.server.request('GET', '/api/v1/me', { token: res.body.access_token })).status, 200, `${label}: signed in`);
}

async function expectTrialing(t: Test, res: { status: number; body: any }, cloud: Cloud, label: string): Promise<void> {
  t.equal(res.status, 201, label);
  t.same(subscriptionOf(cloud.server, res.body.org.id), { status: 'trialing', trial_state: 'trialing' }, label);
}

t.test('risk rule: a device or address shared with an organization whose trial began less than 90 days ago', async (t) => {
  const cloud = await startCloud(t);
  const ip = freshIp();
  await expectTrialing(t, await signUp(cloud, { device_fp: 'device-a' }, ip), cloud, 'the first signup');
  await expectHeld(t, await signUp(cloud, { device_fp: 'device-a' }), cloud, 'same device, another address');
  cloud.server.clock.advance(2 * 24 * 60 * 60_000);
  await expectHeld(t, await signUp(cloud, {}, ip), cloud, 'same address two days later');
  await expectTrialing(t, await signUp(cloud, { device_fp: 'device-b' }), cloud, 'no shared signal');
  cloud.server.clock.advance(90 * 24 * 60 * 60_000);
  await expectTrialing(t, await signUp(cloud, { device_fp: 'device-a' }), cloud, 'a company address after 90 days');
});

t.test('risk rule: a free mail provider plus any shared signal, whatever its age', async (t) => {
  const cloud = await startCloud(t);
  await signUp(cloud, { device_fp: 'device-old' });
  cloud.server.clock.advance(200 * 24 * 60 * 60_000);
  await expectTrialing(t, await signUp(cloud, { email: freeEmail() }), cloud, 'a free address without a shared signal');
  await expectTrialing(t, await signUp(cloud, { device_fp: 'device-old' }), cloud, 'a company address sharing an old device');
  await expectHeld(t, await signUp(cloud, { email: freeEmail(), device_fp: 'device-old' }), cloud, 'a free address sharing an old device');
});

t.test('risk rule: two or more signups from one address within 24 hours', async (t) => {
  const cloud = await startCloud(t);
  const ip = freshIp();
  const first = await beginSignup(cloud, {}, ip);
  cloud.server.clock.advance(23 * 60 * 60_000);
  const second = await beginSignup(cloud, {}, ip);
  await expectHeld(t, await verify(cloud, second), cloud, 'the second signup within 24 hours');
  t.equal(first.ip, second.ip);

  const other = freshIp();
  await beginSignup(cloud, {}, other);
  cloud.server.clock.advance(24 * 60 * 60_000 + 1000);
  await expectTrialing(t, await verify(cloud, await beginSignup(cloud, {}, other)), cloud, 'a day and a second apart');
  const again = await beginSignup(cloud, { email: companyEmail() }, freshIp());
  await post(cloud.server, '/api/v1/auth/register', { email: again.email, password: TEST_PASSWORD }, again.ip);
  await expectTrialing(
    t,
    await post(cloud.server, '/api/v1/auth/register/verify', { token: (await mailTo(cloud.sink, again.email, 2)).text.match(/token=([\w-]+)/)![1] }),
    cloud,
    'registering one address twice is one signup',
  );
});

t.test('rate limits: the verify family spends the sign-in group budgets', async (t) => {
  const sinkless = await startCloud(t, { 'rate_limit.auth_ip_per_minute': 10, 'rate_limit.auth_email_per_minute': 5 });
  const ip = freshIp();
  const calls = [
    () => post(sinkless.server, '/api/v1/auth/register/verify', { email: companyEmail(), code: '123456' }, ip),
    () => post(sinkless.server, '/api/v1/auth/register/resend', { email: companyEmail() }, ip),
    () => post(sinkless.server, '/api/v1/auth/register/request-invite', { token: 'nope' }, ip),
    () => post(sinkless.server, '/api/v1/auth/register/domain-review', { email: companyEmail(), code: '123456' }, ip),
    () => post(sinkless.server, '/api/v1/auth/register', { email: 'malformed' }, ip),
  ];
  for (let i = 0; i < 10; i++) t.not((await calls[i % calls.length]!()).status, 429, `attempt ${i + 1}`);
  for (const call of calls) {
    const res = await call();
    t.equal(res.status, 429);
    t.equal(res.body.error.code, 'rate_limited');
  }
  const email = companyEmail();
  for (let i = 0; i < 5; i++) t.equal((await post(sinkless.server, '/api/v1/auth/register/verify', { email, code: '123456' }, freshIp())).status, 422, `email attempt ${i + 1}`);
  const sixth = await post(sinkless.server, '/api/v1/auth/register/resend', { email }, freshIp());
  t.equal(sixth.status, 429, 'the 6th attempt on one address, from anywhere');
  sinkless.server.clock.advance(60_000);
  t.equal((await post(sinkless.server, '/api/v1/auth/register/resend', { email }, ip)).status, 202, 'a minute later');
});

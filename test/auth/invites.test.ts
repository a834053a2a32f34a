// Invitations end to end through real mail: who may invite whom, listing and withdrawing, and
// accepting as a new user (password rule) or as an existing user with MFA (second factor required).

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, login, refreshCookieFrom, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { linkToken, startSmtpSink } from '../support/smtpSink.js';
import { ROOMY_LIMITS, enableMfaOverHttp, register, totpAt } from './authTestKit.js';

t.test('invitations', async (t) => {
  const sink = await startSmtpSink(t);
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, smtp_url: sink.url, base_url: 'https://pp.example.com', signup_mode: 'legacy' } });
  const { owner, org } = await createTenant(server);
  const ownerToken = await accessTokenFor(server, owner, org);
  const admin = await addMember(server, org, 'admin');
  const adminToken = await accessTokenFor(server, admin, org);
  const analystToken = await accessTokenFor(server, await addMember(server, org, 'analyst'), org);
  const invitesPath = `/api/v1/orgs/${org.id}/invites`;
  const invite = (token: string | undefined, body: unknown, path = invitesPath) => server.request('POST', path, { token, body });
  const accept = (body: Record<string, unknown>) => server.request('POST', '/api/v1/auth/invite/accept', { body });
  const tokenFor = async (email: string) => linkToken(await sink.waitFor((m) => m.to.includes(email)), '/invite');

  t.test('create: 401, 422, 403, 404 in that order', async (t) => {
    t.equal((await invite(undefined, { email: uniqueEmail(), role: 'viewer' })).status, 401);
    const bad = await invite(adminToken, { email: uniqueEmail(), role: 'superuser' });
    t.equal(bad.status, 422);
    t.equal(bad.body.error.details.field, 'role');
    t.equal((await invite(adminToken, { role: 'viewer' })).body.error.details.field, 'email');
    const low = await invite(analystToken, { email: uniqueEmail(), role: 'viewer' });
    t.equal(low.status, 403);
    t.equal(low.body.error.code, 'forbidden');
    const adminOwner = await invite(adminToken, { email: uniqueEmail(), role: 'owner' });
    t.equal(adminOwner.status, 403, 'only an owner invites an owner');
    t.equal(adminOwner.body.error.message, 'only an owner may invite or uninvite an owner');
    const foreign = await createTenant(server);
    t.equal((await invite(adminToken, { email: uniqueEmail(), role: 'viewer' }, `/api/v1/orgs/${foreign.org.id}/invites`)).status, 404);
    t.equal((await invite(adminToken, { email: owner.email, role: 'viewer' })).status, 409, 'a current member cannot be invited');
  });

  t.test('201 by an admin; the email carries a seven-day link and the response never carries the token', async (t) => {
    const email = uniqueEmail('Invitee');
    const res = await invite(adminToken, { email, role: 'analyst' });
    t.equal(res.status, 201);
    t.same(Object.keys(res.body).sort(), ['accepted_at', 'created_at', 'email', 'expires_at', 'id', 'invited_by', 'role', 'status']);
    t.equal(res.body.email, email.toLowerCase());
    t.equal(res.body.status, 'pending');
    t.equal(res.body.invited_by, admin.id);
    t.equal(Date.parse(res.body.expires_at) - Date.parse(res.body.created_at), 7 * 24 * 3600_000);
    const mail = await sink.waitFor((m) => m.to.includes(email.toLowerCase()));
    t.equal(mail.subject, 'Invitation to Test org on pp');
    t.match(mail.text, /https:\/\/pp\.example\.com\/invite\?token=[A-Za-z0-9_-]{43}\b/);
    t.match(mail.text, /as analyst/);
    t.notMatch(res.text, linkToken(mail, '/invite'));
    t.equal((await invite(ownerToken, { email: uniqueEmail(), role: 'owner' })).status, 201, 'an owner may invite an owner');
  });

  t.test('list (admin+) and withdraw; a withdrawn link is 404', async (t) => {
    const email = uniqueEmail('withdrawn');
    const created = await invite(adminToken, { email, role: 'viewer' });
    const token = await tokenFor(email);
    t.equal((await server.request('GET', invitesPath)).status, 401);
    t.equal((await server.request('GET', invitesPath, { token: analystToken })).status, 403);
    const list = await server.request('GET', invitesPath, { token: adminToken });
    t.equal(list.status, 200);
    t.equal(list.body.items[0].id, created.body.id, 'newest first');
    const path = `${invitesPath}/${created.body.id}`;
    t.equal((await server.request('DELETE', path, { token: analystToken })).status, 403);
    t.equal((await server.request('DELETE', `${invitesPath}/999999`, { token: adminToken })).status, 404);
    t.equal((await server.request('DELETE', path, { token: adminToken })).status, 204);
    t.equal((await server.request('DELETE', path, { token: adminToken })).status, 404, 'already withdrawn');
    const after = await server.request('GET', invitesPath, { token: adminToken });
    t.notOk(after.body.items.some((i: { id: number }) => i.id === created.body.id));
    const res = await accept({ token, password: TEST_PASSWORD });
    t.equal(res.status, 404);
    t.equal(res.body.error.code, 'not_found');
  });

  t.test('an admin cannot withdraw an owner invitation', async (t) => {
    const created = await invite(ownerToken, { email: uniqueEmail(), role: 'owner' });
    t.equal((await server.request('DELETE', `${invitesPath}/${created.body.id}`, { token: adminToken })).status, 403);
    t.equal((await server.request('DELETE', `${invitesPath}/${created.body.id}`, { token: ownerToken })).status, 204);
  });

  t.test('lookup: only the holder of the token learns the organization, the inviter and the role', async (t) => {
    const lookup = (body: Record<string, unknown>) => server.request('POST', '/api/v1/auth/invite/lookup', { body });
    t.equal((await server.request('PATCH', '/api/v1/me', { token: adminToken, body: { name: 'Ana Silva' } })).status, 200);
    const email = uniqueEmail('looked-up');
    const created = await invite(adminToken, { email, role: 'analyst' });
    const token = await tokenFor(email);
    const missing = await lookup({});
    t.equal(missing.status, 422);
    t.equal(missing.body.error.details.field, 'token');
    const unknown = await lookup({ token: 'no-such-token' });
    t.equal(unknown.status, 404);
    t.same(unknown.body.error, { code: 'not_found', message: 'invitation not found', details: {} }, 'nothing about any organization without the token');
    const res = await lookup({ token });
    t.equal(res.status, 200);
    t.same(res.body, { email: email.toLowerCase(), org_name: 'Test org', role: 'analyst', invited_by_name: 'Ana Silva', expires_at: created.body.expires_at, new_account: true });
    t.equal((await accept({ token, password: TEST_PASSWORD })).status, 200);
    const used = await lookup({ token });
    t.equal(used.status, 422, 'a used invitation is 422, as for accepting');
    t.equal(used.body.error.message, 'invitation has already been used');

    const existing = await register(server);
    await invite(adminToken, { email: existing.email, role: 'viewer' });
    t.match((await lookup({ token: await tokenFor(existing.email) })).body, { role: 'viewer', new_account: false }, 'an existing account joins without a new password');
  });

  t.test('accept as a new user: password required and checked, then signed in with the invited role', async (t) => {
    const email = uniqueEmail('newbie');
    await invite(adminToken, { email, role: 'analyst' });
    const token = await tokenFor(email);
    t.equal((await accept({})).body.error.details.field, 'token');
    const unknown = await accept({ token: 'no-such-token', password: TEST_PASSWORD });
    t.equal(unknown.status, 404);
    const noPassword = await accept({ token });
    t.equal(noPassword.status, 422);
    t.equal(noPassword.body.error.details.field, 'password');
    const weak = await accept({ token, password: 'alllowercase1!' });
    t.equal(weak.status, 422);
    t.equal(weak.body.error.message, 'password must contain an uppercase letter');

    const res = await accept({ token, password: 'Fresh-Start-42', name: 'Newbie' });
    t.equal(res.status, 200);
    t.match(res.headers.getSetCookie()[0], /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict; Secure$/);
    t.same(res.body.org, { id: org.id, name: org.name, role: 'analyst' });
    t.same(res.body.user, { id: res.body.user.id, email, name: 'Newbie' });
    t.equal((await server.request('GET', '/api/v1/projects', { token: res.body.access_token })).status, 200);
    t.equal((await login(server, email, 'Fresh-Start-42')).status, 200, 'the chosen password signs in');

    const reused = await accept({ token, password: 'Fresh-Start-42' });
    t.equal(reused.status, 422, 'a used invitation is 422');
    t.equal(reused.body.error.message, 'invitation has already been used');
    const list = await server.request('GET', invitesPath, { token: adminToken });
    t.equal(list.body.items.find((i: { email: string }) => i.email === email).status, 'accepted');
  });

  t.test('a clock stepped back or forward by a day: no invitation outlives seven days from now', async (t) => {
    const DAY = 24 * 3600_000;
    const backEmail = uniqueEmail('stepped-back');
    await invite(adminToken, { email: backEmail, role: 'viewer' });
    const back = await tokenFor(backEmail);
    const forwardEmail = uniqueEmail('stepped-forward');
    await invite(adminToken, { email: forwardEmail, role: 'viewer' });
    const forward = await tokenFor(forwardEmail);
    server.clock.step(-DAY);
    const res = await accept({ token: back, password: TEST_PASSWORD });
    t.equal(res.body.error?.message, 'invitation has expired', 'it would otherwise live eight days');
    const list = await server.request('GET', invitesPath, { token: await accessTokenFor(server, admin, org) });
    t.equal(list.body.items.find((i: { email: string }) => i.email === backEmail).status, 'expired', 'listed as it is treated');
    server.clock.step(2 * DAY);
    t.equal((await accept({ token: forward, password: TEST_PASSWORD })).status, 200, 'a day on, inside its seven days');
    server.clock.step(-DAY); // back to the time the other cases' tokens were minted at
  });

  t.test('an invitation expires after seven days', async (t) => {
    const email = uniqueEmail('late');
    await invite(adminToken, { email, role: 'viewer' });
    const token = await tokenFor(email);
    server.clock.advance(7 * 24 * 3600_000 + 1000);
    const res = await accept({ token, password: TEST_PASSWORD });
    t.equal(res.status, 422);
    t.same(res.body.error, { code: 'validation_failed', message: 'invitation has expired', details: { field: 'token', errors: [{ field: 'token', message: 'invitation has expired' }] } });
    const list = await server.request('GET', invitesPath, { token: await accessTokenFor(server, admin, org) });
    t.equal(list.body.items.find((i: { email: string }) => i.email === email).status, 'expired');
  });

  t.test('accept as an existing user with MFA: the second factor is required', async (t) => {
    const adminNow = await accessTokenFor(server, admin, org);
    const existing = await register(server);
    const { secret } = await enableMfaOverHttp(server, existing.token);
    server.clock.advance(60_000);
    await invite(adminNow, { email: existing.email, role: 'viewer' });
    const token = await tokenFor(existing.email);

    const wrongPassword = await accept({ token, password: 'Not-Theirs-1' });
    t.equal(wrongPassword.status, 401, 'a password, when given, must be the account password');
    const asked = await accept({ token });
    t.equal(asked.status, 200);
    t.same(asked.body, { mfa_required: true });
    t.same(asked.headers.getSetCookie(), []);
    const wrong = await accept({ token, mfa_code: totpAt(server, secret, 3) });
    t.equal(wrong.status, 401);
    const res = await accept({ token, mfa_code: totpAt(server, secret) });
    t.equal(res.status, 200);
    t.same(res.body.org, { id: org.id, name: org.name, role: 'viewer' });
    t.equal(res.body.user.id, existing.body.user.id);
    t.ok(refreshCookieFrom(res.headers));
    const me = await server.request('GET', '/api/v1/me', { token: res.body.access_token });
    t.equal(me.body.orgs.length, 2, 'the new membership joins the existing one');
  });

  t.test('accept as an existing user without MFA needs only the emailed token', async (t) => {
    const existing = await register(server);
    await invite(await accessTokenFor(server, admin, org), { email: existing.email, role: 'analyst' });
    const res = await accept({ token: await tokenFor(existing.email), password: existing.password });
    t.equal(res.status, 200);
    t.equal(res.body.org.role, 'analyst');
  });
});

t.test('without SMTP the admin is given the link to pass on, and it works', async (t) => {
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, signup_mode: 'legacy' } });
  const { org, owner } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const email = uniqueEmail('no-mail');
  const res = await server.request('POST', `/api/v1/orgs/${org.id}/invites`, { token, body: { email, role: 'viewer' } });
  t.equal(res.status, 201);
  t.match(res.body.link, new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/invite\\?token=[A-Za-z0-9_-]{43}$`));
  const listed = await server.request('GET', `/api/v1/orgs/${org.id}/invites`, { token });
  t.notOk('link' in listed.body.items[0], 'the list never shows it again');
  const accepted = await server.request('POST', '/api/v1/auth/invite/accept', { body: { token: new URL(res.body.link).searchParams.get('token'), password: 'New-Member-5' } });
  t.equal(accepted.status, 200);
  t.equal(accepted.body.org.id, org.id);
});

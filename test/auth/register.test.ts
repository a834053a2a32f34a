// POST /api/v1/auth/register in legacy mode: 201 TokenResponse with the refresh cookie, the account,
// organization, owner membership and first project it creates, the password rule, and closed mode.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { uniqueEmail } from '../support/factories.js';
import { ROOMY_LIMITS, register } from './authTestKit.js';

const COOKIE = /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict$/;

t.test('register', async (t) => {
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, signup_mode: 'legacy' } });

  t.test('422 for a body that breaks the schema, naming the field', async (t) => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['no email', { password: 'Correct-Horse-9' }, 'email'],
      ['bad email', { email: 'not-an-email', password: 'Correct-Horse-9' }, 'email'],
      ['no password', { email: uniqueEmail() }, 'password'],
      ['unknown field', { email: uniqueEmail(), password: 'Correct-Horse-9', plan: 'gold' }, 'plan'],
      ['name too long', { email: uniqueEmail(), password: 'Correct-Horse-9', name: 'x'.repeat(201) }, 'name'],
    ];
    for (const [label, body, field] of cases) {
      const res = await server.request('POST', '/api/v1/auth/register', { body });
      t.equal(res.status, 422, label);
      t.equal(res.body.error.code, 'validation_failed', label);
      t.equal(res.body.error.details.field, field, label);
    }
  });

  t.test('the password rule: upper case, digit, punctuation or symbol, at least 8 characters', async (t) => {
    const cases: Array<[string, string | null]> = [
      ['Correct-Horse-9', null],
      ['Ünïcode€7x', null],
      ['ABCDEFG1+', null],
      ['correct-horse-9', 'password must contain an uppercase letter'],
      ['Correct-Horse-', 'password must contain a digit'],
      ['CorrectHorse9', 'password must contain a punctuation or symbol character'],
      ['Co-9', 'password must be at least 8 characters'],
    ];
    for (const [password, message] of cases) {
      const res = await server.request('POST', '/api/v1/auth/register', { body: { email: uniqueEmail(), password } });
      if (message === null) {
        t.equal(res.status, 201, `${password} is accepted`);
        continue;
      }
      t.equal(res.status, 422, password);
      t.same(res.body.error, { code: 'validation_failed', message, details: { field: 'password', errors: [{ field: 'password', message }] } }, password);
    }
  });

  t.test('an email already registered is 422 on the email field, whatever its case', async (t) => {
    const first = await register(server);
    const res = await server.request('POST', '/api/v1/auth/register', { body: { email: first.email.toUpperCase(), password: 'Correct-Horse-9' } });
    t.equal(res.status, 422);
    t.equal(res.body.error.details.field, 'email');
    t.equal(res.body.error.message, 'an account with this email already exists');
  });

  t.test('201: TokenResponse, exact cookie, and everything it creates', async (t) => {
    const email = uniqueEmail('Reg');
    const res = await server.request('POST', '/api/v1/auth/register', {
      body: { email, password: 'Correct-Horse-9', name: 'Ada', org_name: 'Analytical Engines', timezone: 'Europe/Berlin', device_fp: 42, utm: 'x' },
    });
    t.equal(res.status, 201);
    const cookies = res.headers.getSetCookie();
    t.equal(cookies.length, 1);
    t.match(cookies[0], COOKIE);
    t.same(Object.keys(res.body).sort(), ['access_token', 'expires_in', 'org', 'token_type', 'user']);
    t.equal(res.body.token_type, 'Bearer');
    t.equal(res.body.expires_in, 900);
    t.same(res.body.user, { id: res.body.user.id, email: email.toLowerCase(), name: 'Ada' });
    t.same(res.body.org, { id: res.body.org.id, name: 'Analytical Engines', role: 'owner' });
    t.notMatch(res.text, cookies[0]!.split(';')[0]!.slice(6), 'the refresh token never appears in the body');

    const me = await server.request('GET', '/api/v1/me', { token: res.body.access_token });
    t.equal(me.status, 200);
    t.same(me.body.orgs, [{ id: res.body.org.id, name: 'Analytical Engines', role: 'owner' }]);
    const projects = await server.request('GET', '/api/v1/projects', { token: res.body.access_token });
    t.equal(projects.body.items.length, 1);
    t.equal(projects.body.items[0].timezone, 'Europe/Berlin', 'the browser zone becomes the first project zone');

    const row = server.running.services.meta.prepare('SELECT password_hash FROM users WHERE id = ?').get(res.body.user.id) as { password_hash: string };
    t.match(row.password_hash, /^\$argon2id\$/, 'argon2id hash at rest');
  });

  t.test('defaults: organization named after the user, project in UTC when the zone is not valid', async (t) => {
    const named = await register(server, { name: 'Grace', timezone: 'Mars/Olympus_Mons' });
    t.equal(named.body.org.name, "Grace's organization");
    const projects = await server.request('GET', '/api/v1/projects', { token: named.token });
    t.equal(projects.body.items[0].timezone, 'UTC');
    const anonymous = await register(server, { email: uniqueEmail('nameless'), timezone: 17 });
    t.match(anonymous.body.org.name, /^nameless-\d+-\d+'s organization$/);
  });
});

t.test('the cookie is Secure when the base URL is https', async (t) => {
  const server = await startTestServer(t, { settings: { ...ROOMY_LIMITS, base_url: 'https://analytics.example.com', signup_mode: 'legacy' } });
  const res = await server.request('POST', '/api/v1/auth/register', { body: { email: uniqueEmail(), password: 'Correct-Horse-9' } });
  t.equal(res.status, 201);
  t.match(res.headers.getSetCookie()[0], /^pp_rt=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/api\/v1\/auth; HttpOnly; SameSite=Strict; Secure$/);
});

t.test('on-prem is closed by default: the first account registers, then 403 and nothing created', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  t.equal(server.running.services.config.signup_mode, 'closed', 'the on-prem default');
  const users = () => (server.running.services.meta.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n;
  t.same((await server.request('GET', '/api/v1/auth/options')).body, { registration: 'open', password_reset_email: false }, 'no account yet: open');
  const bad = await server.request('POST', '/api/v1/auth/register', { body: { email: 'nope' } });
  t.equal(bad.status, 422, 'schema checks still come first');
  const first = await server.request('POST', '/api/v1/auth/register', { body: { email: uniqueEmail('first'), password: 'Correct-Horse-9' } });
  t.equal(first.status, 201, 'the first owner of a fresh server');
  t.same((await server.request('GET', '/api/v1/auth/options')).body, { registration: 'invitation_only', password_reset_email: false });
  const res = await server.request('POST', '/api/v1/auth/register', { body: { email: uniqueEmail(), password: 'Correct-Horse-9' } });
  t.equal(res.status, 403);
  t.equal(res.body.error.code, 'forbidden');
  t.equal(res.body.error.message, 'registration is closed on this installation; ask an administrator for an invitation');
  t.same(res.headers.getSetCookie(), []);
  t.equal(users(), 1, 'nothing created');
});

t.test('sign-in options follow the settings', async (t) => {
  const open = await startTestServer(t, { settings: { ...ROOMY_LIMITS, signup_mode: 'legacy', smtp_url: 'smtp://127.0.0.1:9' } });
  await register(open);
  t.same((await open.request('GET', '/api/v1/auth/options')).body, { registration: 'open', password_reset_email: true });
  const cloud = await startTestServer(t, { settings: { ...ROOMY_LIMITS, edition: 'cloud' } });
  t.equal(cloud.running.services.config.signup_mode, 'legacy', 'the cloud default is unchanged');
});

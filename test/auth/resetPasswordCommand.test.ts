// `ppctl admin reset-password EMAIL`: a generated password printed once (or one read from a file),
// every session signed out, optionally MFA turned off; through the admin socket of a running server.

import t from 'tap';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD, uniqueEmail } from '../support/factories.js';
import { runPpctl } from '../support/ppctl.js';
import { ROOMY_LIMITS, enableMfaOverHttp } from './authTestKit.js';

t.test('ppctl admin reset-password', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pp-pw-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const { owner } = await createTenant(server);
  const ppctl = (...args: string[]) => runPpctl(['admin', 'reset-password', ...args, '--data-dir', server.dataDir]);

  t.test('an unknown email is refused', async (t) => {
    const res = await ppctl(uniqueEmail('ghost'));
    t.equal(res.code, 1);
    t.match(res.stderr, /^ppctl: no account with email ghost-/);
  });

  t.test('--link: a one-hour reset link for the owner; nothing changes until it is used', async (t) => {
    const before = await login(server, owner.email, TEST_PASSWORD);
    const res = await ppctl(owner.email, '--link', '--json');
    t.equal(res.code, 0, res.stderr);
    const issued = JSON.parse(res.stdout) as { email: string; link: string; expires_at: string };
    t.equal(issued.email, owner.email.toLowerCase());
    t.equal(Date.parse(issued.expires_at) - server.clock.now().getTime(), 3600_000, 'valid one hour');
    const link = new URL(issued.link);
    t.equal(`${link.origin}${link.pathname}`, `${server.running.services.config.base_url}/reset-password`);
    t.equal((await server.request('GET', '/api/v1/me', { token: before.token })).status, 200, 'sessions live on');
    t.equal((await login(server, owner.email, TEST_PASSWORD)).status, 200, 'the password is unchanged');
    const reset = await server.request('POST', '/api/v1/auth/password/reset', { body: { token: link.searchParams.get('token'), password: 'Linked-Reset-4' } });
    t.equal(reset.status, 204, reset.text);
    t.equal((await login(server, owner.email, 'Linked-Reset-4')).status, 200, 'the owner chose the new password');
    t.equal((await server.request('POST', '/api/v1/auth/password/reset', { body: { token: link.searchParams.get('token'), password: 'Again-Reset-5' } })).status, 422, 'single use');
    const text = await ppctl(owner.email, '--link');
    t.match(
      text.stdout,
      new RegExp(`^Reset link for ${owner.email.toLowerCase().replace(/[.+]/g, '\\$&')} \\(single use, valid until \\S+\\); give it to its owner:\n  http\\S+/reset-password\\?token=\\S+\n$`),
    );
    const both = await ppctl(owner.email, '--link', '--disable-mfa');
    t.equal(both.code, 1, '--link changes nothing, so it takes no other change');
    // Back to the password the next cases sign in with.
    const restore = path.join(dir, 'restore.txt');
    await writeFile(restore, `${TEST_PASSWORD}\n`);
    t.equal((await ppctl(owner.email, '--password-file', restore)).code, 0);
  });

  t.test('a generated password, printed once; old sessions end', async (t) => {
    const before = await login(server, owner.email, TEST_PASSWORD);
    const res = await ppctl(owner.email);
    t.equal(res.code, 0, res.stderr);
    const password = /new password: (\S+)/.exec(res.stdout)?.[1];
    t.ok(password);
    t.match(res.stdout, `Password of ${owner.email} changed; all its sessions are signed out.`);
    t.equal((await server.request('GET', '/api/v1/me', { token: before.token })).status, 401);
    t.equal((await login(server, owner.email, TEST_PASSWORD)).status, 401);
    const after = await login(server, owner.email, password!);
    t.equal(after.status, 200);
    t.equal((await server.request('GET', '/api/v1/me', { token: after.token })).body.user.password_change_required, true, 'a password the operator saw must be changed');
  });

  t.test('--password-file: the rule applies; a trailing newline is not part of the password', async (t) => {
    const weak = path.join(dir, 'weak');
    await writeFile(weak, 'lowercase-only-1\n');
    const refused = await ppctl(owner.email, '--password-file', weak);
    t.equal(refused.code, 1);
    t.match(refused.stderr, 'ppctl: the password must contain an uppercase letter');
    const good = path.join(dir, 'good');
    await writeFile(good, 'Chosen-By-Admin-5\n');
    const res = await ppctl(owner.email, '--password-file', good);
    t.equal(res.code, 0, res.stderr);
    t.notMatch(res.stdout, /new password/);
    t.equal((await login(server, owner.email, 'Chosen-By-Admin-5')).status, 200);
  });

  t.test('--disable-mfa turns off a lost second factor', async (t) => {
    const first = await login(server, owner.email, 'Chosen-By-Admin-5');
    await enableMfaOverHttp(server, first.token!);
    t.same((await login(server, owner.email, 'Chosen-By-Admin-5')).body, { mfa_required: true });
    const res = await ppctl(owner.email, '--disable-mfa');
    t.equal(res.code, 0, res.stderr);
    t.match(res.stdout, 'two-factor authentication turned off');
    const password = /new password: (\S+)/.exec(res.stdout)![1]!;
    t.ok((await login(server, owner.email, password)).token);
  });
});

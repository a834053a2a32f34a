// The audit log is append-only (the database refuses changes and deletions) and password sign-ins
// land in it, successes and failures alike, with no password.

import t from 'tap';
import { listAudit, recordAudit } from '../../server/audit/recordAudit.js';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';

t.test('entries are added and read back, newest first, and cannot be changed or removed', async (t) => {
  const server = await startTestServer(t);
  const services = server.running.services;
  recordAudit(services, { action: 'test.first', outcome: 'success' });
  server.clock.advance(1000);
  recordAudit(services, { actor_user_id: 7, org_id: 3, action: 'test.second', target: 'x', outcome: 'failure', details: { reason: 'because' } });
  const entries = listAudit(services);
  t.same(
    entries.map(({ id: _id, ...rest }) => rest),
    [
      { at: '2026-11-02T12:00:01.000Z', actor_user_id: 7, org_id: 3, action: 'test.second', target: 'x', outcome: 'failure', details: { reason: 'because' } },
      { at: '2026-11-02T12:00:00.000Z', actor_user_id: null, org_id: null, action: 'test.first', target: null, outcome: 'success', details: {} },
    ],
  );
  t.same(
    listAudit(services, { orgId: 3 }).map((e) => e.action),
    ['test.second'],
  );
  t.throws(() => services.meta.prepare("UPDATE audit_log SET outcome = 'success'").run(), { message: 'audit_log is append-only' });
  t.throws(() => services.meta.prepare('DELETE FROM audit_log').run(), { message: 'audit_log is append-only' });
  t.equal(listAudit(services).length, 2);
});

t.test('password sign-ins: success, wrong password and unknown email', async (t) => {
  const server = await startTestServer(t, { settings: ROOMY_LIMITS });
  const services = server.running.services;
  const { owner, org } = await createTenant(server);
  t.equal((await login(server, owner.email, TEST_PASSWORD)).status, 200);
  t.equal((await login(server, owner.email, 'Wrong-Password-1')).status, 401);
  t.equal((await login(server, 'nobody@example.test', 'Wrong-Password-1')).status, 401);
  const entries = listAudit(services, { action: 'auth.password.sign_in' }).reverse();
  t.match(entries, [
    { actor_user_id: owner.id, org_id: org.id, target: owner.email, outcome: 'success', details: { ip: '127.0.0.1' } },
    { actor_user_id: owner.id, org_id: null, target: owner.email, outcome: 'failure', details: { reason: 'wrong_password' } },
    { actor_user_id: null, org_id: null, target: 'nobody@example.test', outcome: 'failure', details: { reason: 'unknown_email' } },
  ]);
  t.notMatch(JSON.stringify(entries), /Wrong-Password|Correct-Horse/);
});

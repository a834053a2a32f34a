// The bootstrap response carries the license section: what the shell shows about the license.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { grantEntitlements } from '../support/license.js';

t.test('bootstrap license section follows the applied license', async (t) => {
  const server = await startTestServer(t, { now: new Date('2026-03-01T00:00:00Z') });
  const { owner } = await createTenant(server);
  const bootstrap = async () => {
    const session = await login(server, owner.email, TEST_PASSWORD);
    const res = await server.request('POST', '/api/v1/auth/bootstrap', { headers: { cookie: session.cookie! } });
    t.equal(res.status, 200);
    return res.body.license;
  };

  t.same(await bootstrap(), {
    status: 'none',
    licensee: null,
    edition: null,
    expires_at: null,
    grace_ends_at: null,
    days_left: null,
    features: [],
    warnings: [],
  });

  await grantEntitlements(server, ['saved_segments']);
  const section = await bootstrap();
  t.equal(section.status, 'valid');
  t.equal(section.licensee, 'Test Customer');
  t.equal(section.days_left, 365);
  t.same(section.features, ['saved_segments']);
  t.equal(section.expires_at, '2027-03-01T00:00:00.000Z');

  server.clock.advance(350 * 86_400_000);
  const expiring = await bootstrap();
  t.equal(expiring.status, 'expiring');
  t.equal(expiring.days_left, 15);
  t.match(expiring.warnings[0], /expires in 15 days/);
});

// Request logs are JSON lines with credentials redacted.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { redactUrl } from '../../server/ground/logger.js';

t.test('redactUrl masks secret query parameters only', async (t) => {
  t.equal(redactUrl('/v1/track?key=pp_wk_secret&x=1'), '/v1/track?key=%5Bredacted%5D&x=1');
  t.equal(redactUrl('/a?token=abc'), '/a?token=%5Bredacted%5D');
  t.equal(redactUrl('/cb?code=c1&state=s1&Access_Token=a1&api-key=k1'), '/cb?code=%5Bredacted%5D&state=%5Bredacted%5D&Access_Token=%5Bredacted%5D&api-key=%5Bredacted%5D');
  t.equal(redactUrl('/a?page=2'), '/a?page=2');
  t.equal(redactUrl('/a'), '/a');
});

t.test('authorization, cookies and secret parameters never reach the log', async (t) => {
  const server = await startTestServer(t);
  await server.request('GET', '/api/v1/health?token=tok_SECRET1&key=pp_wk_SECRET2', {
    headers: { authorization: 'Bearer SECRET3', cookie: 'pp_rt=SECRET4', referer: 'https://pp.example.com/reset-password?token=SECRET5' },
  });
  // A console page loaded from an invitation link calls the API with that link as its Referer.
  await server.request('POST', '/api/v1/auth/invite/accept', {
    body: { token: 'SECRET6' },
    headers: { referer: 'https://pp.example.com/invite?token=SECRET7#x', 'x-original-url': '/auth/oidc/callback?code=SECRET8&state=SECRET9' },
  });
  const line = server.logs.find((l) => l.msg === 'request' && String((l.req as { url: string }).url).startsWith('/api/v1/health?'));
  t.ok(line, 'the request was logged');
  const text = JSON.stringify(server.logs);
  for (const secret of ['SECRET1', 'SECRET2', 'SECRET3', 'SECRET4', 'SECRET5', 'SECRET6', 'SECRET7', 'SECRET8', 'SECRET9']) t.notMatch(text, secret, `${secret} is not logged`);
  t.equal((line!.req as { headers: Record<string, string> }).headers.referer, 'https://pp.example.com/reset-password?[redacted]', 'the Referer keeps its page, not its query');
  t.equal((line!.req as { headers: Record<string, string> }).headers.authorization, '[redacted]');
  t.equal((line!.req as { headers: Record<string, string> }).headers.cookie, '[redacted]');
  t.equal(server.logs[0]!.msg, 'listening', 'the first line carries the listening URL');
  t.match(server.logs[0]!.url, /^http:\/\/127\.0\.0\.1:\d+$/);
});

// Headers every answer carries (nosniff; no-store on the API, where tokens travel; HSTS only over
// https, see test/installer/tls.test.ts) and the envelope on requests Node refuses itself.

import t from 'tap';
import net from 'node:net';
import { startTestServer } from '../support/testServer.js';
import { createTenant, login, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';

/** Sends raw bytes and reads the whole answer (the server closes the connection). */
function rawExchange(url: string, payload: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(payload));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

t.test('security headers', async (t) => {
  const server = await startTestServer(t);
  const { owner, project } = await createTenant(server);
  const key = createIngestKey(server, project);

  t.test('a sign-in that carries a token is never stored, and nothing is sniffed', async (t) => {
    const res = await login(server, owner.email, TEST_PASSWORD);
    t.equal(res.status, 200);
    t.ok(res.token);
    const again = await server.request('POST', '/api/v1/auth/login', { body: { email: owner.email, password: TEST_PASSWORD } });
    t.equal(again.headers.get('cache-control'), 'no-store');
    t.equal(again.headers.get('x-content-type-options'), 'nosniff');
    t.equal(again.headers.get('strict-transport-security'), null, 'no HSTS over plain http');
    const me = await server.request('GET', '/api/v1/me', { token: res.token });
    t.equal(me.headers.get('cache-control'), 'no-store', 'every API answer is private');
  });

  t.test('nosniff on errors, ingestion and tracker files; public caching where a route asks for it', async (t) => {
    const missing = await server.request('GET', '/api/v1/nowhere');
    t.equal(missing.status, 404);
    t.equal(missing.headers.get('x-content-type-options'), 'nosniff');
    const track = await ingestEvents(server, key, [{ event: 'a', anonymous_id: 'x' }]);
    t.equal(track.status, 202);
    t.equal(track.headers.get('x-content-type-options'), 'nosniff');
    const browser = createIngestKey(server, project, { type: 'browser' });
    const config = await server.request('GET', `/v1/config/${browser.prefix}`);
    t.equal(config.status, 200);
    t.equal(config.headers.get('x-content-type-options'), 'nosniff');
    t.equal(config.headers.get('cache-control'), 'public, max-age=60', 'the ingest surface keeps its own caching');
  });

  t.test('oversized headers are 431 in the error envelope', async (t) => {
    const answer = await rawExchange(server.url, `GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    t.match(head, /^HTTP\/1\.1 431 /);
    t.match(head, /content-type: application\/json/i);
    t.same(JSON.parse(body!), { error: { code: 'headers_too_large', message: 'request headers are larger than the 16 KiB the server accepts', details: {} } });
  });

  t.test('a malformed request line is 400 in the error envelope', async (t) => {
    const answer = await rawExchange(server.url, 'THIS IS NOT HTTP\r\n\r\n');
    const [head, body] = answer.split('\r\n\r\n');
    t.match(head, /^HTTP\/1\.1 400 /);
    t.equal(JSON.parse(body!).error.code, 'validation_failed');
  });
});

// Compressed answers: the console's files as the build compressed them, large JSON answers compressed
// per request, each only for a browser that accepts the encoding, and never a stream.

import t from 'tap';
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestServer } from '../support/testServer.js';
import { consoleDir } from '../../server/http/consoleSite.js';
import { acceptedEncoding } from '../../server/http/compression.js';
import { accessTokenFor, createTenant } from '../support/factories.js';

const server = await startTestServer(t);

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose answer is read as the bytes on the wire, not decoded as fetch would. */
function raw(urlPath: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.get(server.url + urlPath, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

t.test('the accepted encoding: brotli first, q=0 refuses, a wildcard counts', async (t) => {
  const cases: [string | undefined, string | null][] = [
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['BR', 'br'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['gzip;q=abc', null],
    [',,;;==,', null],
  ];
  for (const [header, want] of cases) t.equal(acceptedEncoding(header), want, String(header));
});

t.test('console scripts go out as the build compressed them', async (t) => {
  const dir = path.join(consoleDir(), 'assets');
  const script = readdirSync(dir).find((a) => a.endsWith('.js') && readdirSync(dir).includes(`${a}.br`))!;
  const plain = readFileSync(path.join(dir, script));
  const br = await raw(`/assets/${script}`, { 'accept-encoding': 'gzip, br' });
  t.equal(br.headers['content-encoding'], 'br');
  t.equal(br.headers.vary, 'Accept-Encoding');
  t.ok(br.body.length < plain.length, `${br.body.length} bytes instead of ${plain.length}`);
  t.ok(brotliDecompressSync(br.body).equals(plain), 'the same script');
  const gz = await raw(`/assets/${script}`, { 'accept-encoding': 'gzip' });
  t.equal(gz.headers['content-encoding'], 'gzip');
  t.ok(gunzipSync(gz.body).equals(plain));
  const none = await raw(`/assets/${script}`, {});
  t.equal(none.headers['content-encoding'], undefined);
  t.ok(none.body.equals(plain));
  t.equal(none.headers['content-length'], String(plain.length));
  t.equal((await raw(`/assets/${script}.br`, {})).status, 404, 'a twin is no address of its own');
});

t.test('large JSON answers are compressed, small ones are not', async (t) => {
  const big = await raw('/api/v1/openapi.json', { 'accept-encoding': 'br' });
  t.equal(big.status, 200);
  t.equal(big.headers['content-encoding'], 'br');
  const doc = JSON.parse(brotliDecompressSync(big.body).toString('utf8'));
  t.ok(doc.openapi, 'the whole document');
  t.ok(big.body.length * 3 < brotliDecompressSync(big.body).length, 'at least three times smaller');
  const gz = await raw('/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
  t.equal(gz.headers['content-encoding'], 'gzip');
  t.same(JSON.parse(gunzipSync(gz.body).toString('utf8')), doc);
  const plain = await raw('/api/v1/openapi.json', {});
  t.equal(plain.headers['content-encoding'], undefined);
  t.same(JSON.parse(plain.body.toString('utf8')), doc);
  const health = await raw('/api/v1/health', { 'accept-encoding': 'br' });
  t.equal(health.status, 200);
  t.equal(health.headers['content-encoding'], undefined, 'too small to gain');
  t.ok(JSON.parse(health.body.toString('utf8')));
  const error = await raw('/api/v1/nope', { 'accept-encoding': 'br' });
  t.equal(error.status, 404);
  t.equal(JSON.parse(error.body.toString('utf8')).error.code, 'not_found', 'errors keep their envelope');
});

t.test('the live event stream is never held back to be compressed', async (t) => {
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http
      .get(`${server.url}/api/v1/projects/${project.id}/events/stream`, { headers: { 'accept-encoding': 'br, gzip', authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, resolve)
      .on('error', reject);
  });
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-encoding'], undefined);
  t.match(res.headers['content-type'], /text\/event-stream/);
  res.destroy();
});

// The HTTP core: the error envelope for every failure, X-Request-Id, body limits and schema validation.

import t from 'tap';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestServer, request } from '../support/testServer.js';
import { buildApp, DOMAINS } from '../../server/app.js';
import type { Domain } from '../../server/http/domain.js';
import { jsonBody, jsonResponse, errors } from '../../server/http/openapi.js';
import { PUBLIC } from '../../server/access/access.js';

// A domain used only here, to drive the shared validation and error paths through a real app.
const probeDomain: Domain = {
  name: 'probe',
  openapi: {
    paths: {
      '/api/v1/probe/{n}': {
        post: {
          operationId: 'probe',
          summary: 'probe',
          parameters: [
            { name: 'n', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
            { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' }, maxItems: 3 } },
          ],
          requestBody: jsonBody({
            type: 'object',
            additionalProperties: false,
            required: ['name', 'count'],
            properties: { name: { type: 'string', minLength: 1 }, count: { type: 'integer' }, mode: { enum: ['a', 'b'] } },
          }),
          responses: { '200': jsonResponse('ok', { type: 'object' }), ...errors(400, 422) },
        },
      },
      '/api/v1/probe-crash': {
        get: { operationId: 'probeCrash', summary: 'crash', responses: { '500': jsonResponse('crash', { type: 'object' }) } },
      },
    },
  },
  mount(routes) {
    routes.post('/api/v1/probe/{n}', PUBLIC, (req, res) => {
      res.json({ n: req.valid.params.n, tags: req.valid.query.tag ?? [], body: req.body });
    });
    routes.get('/api/v1/probe-crash', PUBLIC, () => {
      throw new Error('database password is hunter2');
    });
  },
};

t.test('error envelope and validation', async (t) => {
  const server = await startTestServer(t);
  const { app } = buildApp(server.running.services, [...DOMAINS, probeDomain]);
  const probe = http.createServer(app);
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => probe.close(() => resolve())));
  const base = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;

  t.test('unknown route is 404 not_found in the envelope, with a request id', async (t) => {
    const res = await request(base, 'GET', '/api/v1/nowhere');
    t.equal(res.status, 404);
    t.same(res.body, { error: { code: 'not_found', message: 'no such route', details: {} } });
    t.match(res.headers.get('x-request-id'), /^[0-9a-f-]{36}$/);
  });

  t.test('a sane client request id is echoed; a hostile one is replaced', async (t) => {
    const ok = await request(base, 'GET', '/api/v1/health', { headers: { 'x-request-id': 'client-abc-12345' } });
    t.equal(ok.headers.get('x-request-id'), 'client-abc-12345');
    const bad = await request(base, 'GET', '/api/v1/health', { headers: { 'x-request-id': 'spaces and;semicolons' } });
    t.match(bad.headers.get('x-request-id'), /^[0-9a-f-]{36}$/);
  });

  t.test('malformed JSON is 400 validation_failed', async (t) => {
    const res = await request(base, 'POST', '/api/v1/probe/1', { raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    t.equal(res.status, 400);
    t.equal(res.body.error.code, 'validation_failed');
    t.equal(res.body.error.message, 'request body is not valid JSON');
  });

  t.test('a corrupt compressed body is 400, on both surfaces', async (t) => {
    for (const path of ['/api/v1/probe/1', '/v1/health']) {
      const res = await request(base, 'POST', path, { raw: Buffer.from('not gzip at all'), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
      t.equal(res.status, 400, path);
      t.equal(res.body.error.message, 'request body could not be decompressed', path);
    }
  });

  t.test('a body over 1 MiB is 413 payload_too_large', async (t) => {
    const res = await request(base, 'POST', '/api/v1/probe/1', { body: { name: 'x'.repeat(1024 * 1024 + 10), count: 1 } });
    t.equal(res.status, 413);
    t.equal(res.body.error.code, 'payload_too_large');
    t.equal(res.body.error.details.limit_bytes, 1048576);
  });

  t.test('schema failures are 422 naming each offending field', async (t) => {
    const res = await request(base, 'POST', '/api/v1/probe/1', { body: { count: 'three', mode: 'c', extra: true } });
    t.equal(res.status, 422);
    t.equal(res.body.error.code, 'validation_failed');
    const fields = (res.body.error.details.errors as Array<{ field: string }>).map((e) => e.field).sort();
    t.same(fields, ['count', 'extra', 'mode', 'name']);
    t.equal(res.body.error.details.field, res.body.error.details.errors[0].field);
  });

  t.test('a missing body on a route that needs one is 422', async (t) => {
    const res = await request(base, 'POST', '/api/v1/probe/1');
    t.equal(res.status, 422);
    t.equal(res.body.error.details.field, 'body');
  });

  t.test('path parameters are validated (400) and coerced', async (t) => {
    const bad = await request(base, 'POST', '/api/v1/probe/abc', { body: { name: 'a', count: 1 } });
    t.equal(bad.status, 400);
    t.equal(bad.body.error.code, 'validation_failed');
    const ok = await request(base, 'POST', '/api/v1/probe/7?tag=x&tag=y', { body: { name: 'a', count: 1 } });
    t.equal(ok.status, 200);
    t.same(ok.body, { n: 7, tags: ['x', 'y'], body: { name: 'a', count: 1 } });
    const one = await request(base, 'POST', '/api/v1/probe/7?tag=solo', { body: { name: 'a', count: 1 } });
    t.same(one.body.tags, ['solo'], 'a single repeated-parameter value becomes a list');
    const many = await request(base, 'POST', '/api/v1/probe/7?tag=a&tag=b&tag=c&tag=d', { body: { name: 'a', count: 1 } });
    t.equal(many.status, 422);
    t.equal(many.body.error.details.field, 'tag');
  });

  t.test('an unexpected error is 500 internal with the request id and no internals', async (t) => {
    const res = await request(base, 'GET', '/api/v1/probe-crash');
    t.equal(res.status, 500);
    t.same(res.body, { error: { code: 'internal', message: 'internal error', details: { request_id: res.headers.get('x-request-id') } } });
    t.notMatch(res.text, /hunter2|Error:|at .*\.js/);
    const logged = server.logs.find((l) => l.msg === 'unhandled error');
    t.ok(logged, 'the error is logged');
    t.equal(logged?.req_id, res.headers.get('x-request-id'));
  });
});

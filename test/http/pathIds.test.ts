// Integer path ids are read one way only: decimal digits, no sign, no leading zero, no other base,
// exponent, fraction or space. Every other form is 400 validation_failed on every route, and nothing
// is read, changed or deleted through it.

import t from 'tap';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { startTestServer } from '../support/testServer.js';
import { parsePathId } from '../../server/http/pathId.js';
import type { Method } from '../../server/http/openapi.js';
import { createReleaseToken } from '../support/ingest.js';
import { QUERY_BODIES } from '../dashboards/world.js';

/** Forms a lenient number parser reads as an id, each written as it appears in the URL. */
const LENIENT_FORMS = ['01', '0x1', '0X1', '1e0', '0b1', '0o1', '+1', '1.0', '1.', '1%20', '%201', '1%09', '-1', '0', '1_0', '１', '9007199254740992', '99999999999999999'];

t.test('the parser takes decimal digits up to the largest safe integer and nothing else', async (t) => {
  t.equal(parsePathId('1'), 1);
  t.equal(parsePathId('16'), 16);
  t.equal(parsePathId('9007199254740991'), Number.MAX_SAFE_INTEGER);
  for (const form of LENIENT_FORMS) t.equal(parsePathId(decodeURIComponent(form)), undefined, form);
  t.equal(parsePathId(''), undefined);
  t.equal(parsePathId('1 '), undefined);
});

t.test('every lenient form is 400 on insights, dashboards, projects, organizations and keys', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const insight = await server.request('POST', `/api/v1/projects/${project.id}/insights`, { token, body: { name: 'Signups', kind: 'funnel', query: QUERY_BODIES.funnel } });
  t.equal(insight.status, 201, 'an insight to aim at');
  const routes: Array<[string, (id: string) => string]> = [
    ['GET', (id) => `/api/v1/projects/${project.id}/insights/${id}`],
    ['DELETE', (id) => `/api/v1/projects/${project.id}/insights/${id}`],
    ['GET', (id) => `/api/v1/projects/${project.id}/dashboards/${id}`],
    ['GET', (id) => `/api/v1/projects/${id}/keys`],
    ['GET', (id) => `/api/v1/orgs/${id}/members`],
    ['DELETE', (id) => `/api/v1/projects/${project.id}/keys/${id}`],
  ];
  for (const [method, url] of routes) {
    for (const form of LENIENT_FORMS) {
      const res = await server.request(method, url(form), { token });
      t.equal(res.status, 400, `${method} ${url(form)}`);
      t.equal(res.body.error?.code, 'validation_failed', `${method} ${url(form)}`);
    }
  }
  // Insight 1 is the one made above: a lenient spelling of its id deleted nothing.
  t.equal(insight.body.id, 1);
  t.equal((await server.request('GET', `/api/v1/projects/${project.id}/insights/1`, { token })).status, 200, 'the insight survived every lenient delete');
  t.equal((await server.request('GET', `/api/v1/orgs/${org.id}/members`, { token })).status, 200, 'the plain form still works');
});

type Doc = { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; schema?: { type?: unknown } }> }>> };

/** Every path parameter the served document declares, with its schema type. */
function pathParams(doc: Doc) {
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) => (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => ({ method: method as Method, path, name: p.name, type: p.schema?.type }))),
  );
}

/** The URL of an operation with one parameter spelled `bad` and every other id the tenant's own. */
function urlWith(path: string, name: string, bad: string, ids: { orgID: number; id: number }): string {
  return path.replace(/\{(\w+)\}/g, (_, p: string) => (p === name ? bad : p === 'orgID' ? String(ids.orgID) : p === 'id' ? String(ids.id) : '1'));
}

t.test('every integer path parameter of every mounted route goes through the strict parser', async (t) => {
  // The cloud edition mounts the most routes (billing).
  const server = await startTestServer(t, { settings: { edition: 'cloud', base_url: 'https://pp.example.com', 'billing.checkout_url': 'https://pay.example/checkout?org={org_id}' } });
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const release = createReleaseToken(server, project).value;
  const doc = (await server.request('GET', '/api/v1/openapi.json')).body as Doc;
  const params = pathParams(doc);
  t.same(
    params.filter((p) => p.type !== 'integer' && p.type !== 'string'),
    [],
    'every path parameter is a plain integer or string',
  );
  const ids = params.filter((p) => p.type === 'integer');
  t.ok(ids.length > 60, `${ids.length} integer path parameters`);
  const mounted = new Set(server.running.built.routes.mounted.map((r) => `${r.method} ${r.path}`));
  for (const { method, path, name } of ids) {
    t.ok(mounted.has(`${method} ${path}`), `${method} ${path} is mounted`);
    const credential = path.endsWith('/release-markers/deploy') ? release : token;
    const res = await server.request(method.toUpperCase(), urlWith(path, name, '0x1', { orgID: org.id, id: project.id }), {
      token: credential,
      body: method === 'get' || method === 'delete' ? undefined : {},
    });
    t.equal(res.status, 400, `${method.toUpperCase()} ${path}: ${name}=0x1`);
  }
});

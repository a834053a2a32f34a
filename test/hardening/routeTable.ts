// The operations of the served OpenAPI document made concrete for the worst-case suite: real ids in
// path parameters, the credential each operation takes, its maximal body, and how each is sent.

import type { Test } from 'tap';
import type { Answer, LoadedServer } from './loadedServer.js';
import { maximalValue, type Schema, type Variant } from './maximalValue.js';
import { assertHealthy, watchHealth } from '../support/healthWatch.js';

/** The JSON body limit of both surfaces (server/http/errorHandler.ts). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface Operation {
  method: string;
  path: string;
  operationId: string;
  body?: Schema;
  query: Array<{ name: string; schema: Schema; required: boolean }>;
  security?: Array<Record<string, unknown>>;
}

export interface RouteTable {
  operations: Operation[];
  components: Record<string, Schema>;
}

export async function servedRouteTable(server: LoadedServer): Promise<RouteTable> {
  const res = await server.send('GET', '/api/v1/openapi.json', { token: null });
  if (res.status !== 200) throw new Error(`no OpenAPI document: ${res.status}`);
  const doc = res.body as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.responses) continue;
      const params = (op.parameters ?? []) as Array<{ name: string; in: string; schema: Schema; required?: boolean }>;
      operations.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId,
        body: op.requestBody?.content?.['application/json']?.schema,
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema, required: Boolean(p.required) })),
        security: op.security,
      });
    }
  }
  return { operations, components: doc.components.schemas };
}

/** The analytical queries, the path-cleaning trial and the labeled-rule preview: sent four at once. */
export function isHeavy(op: Operation): boolean {
  return /\/queries\/|\/path-cleaning\/test$|\/labeled-events\/preview$/.test(op.path);
}

/** Ingestion bodies whose items the document leaves untyped, checked one by one by the server. */
const ITEM_SCHEMAS: Record<string, string> = { '/v1/track': 'TrackEvent' };

export function maximalBody(op: Operation, table: RouteTable, variant: Variant): unknown {
  let schema = op.body!;
  const items = ITEM_SCHEMAS[op.path];
  if (items) {
    const resolved = table.components[String(schema.$ref).replace('#/components/schemas/', '')] ?? schema;
    schema = {
      ...resolved,
      if: undefined,
      then: undefined,
      properties: { ...resolved.properties, events: { ...resolved.properties.events, maxItems: 500, items: { $ref: `#/components/schemas/${items}` } } },
    };
  }
  return maximalValue(schema, table.components, variant, BODY_LIMIT_BYTES - 1024);
}

export type Ids = Record<string, string | number>;

/** The operation's path with real ids; a parameter without one gets 1 (an answer of 404 is still an answer). */
export function concretePath(path: string, ids: Ids): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(ids[name] ?? 1)));
}

/** The credential an operation declares: a server key, the release token, or the owner's access token. */
export function credentialFor(op: Operation, server: LoadedServer, ids: Ids): string | null {
  const schemes = (op.security ?? [{ accessToken: [] }]).flatMap((s) => Object.keys(s));
  if (schemes.includes('ingestionKey')) return server.serverKey.value;
  if (schemes.includes('releaseToken')) return String(ids.releaseToken ?? '');
  if (op.security && op.security.length === 0) return null;
  return server.token;
}

/**
 * A resource of every kind a path parameter names, made with small valid bodies, so item routes
 * reach their handlers: rule, insight, dashboard and tile, share link, segment, invite, release
 * token, a spare key (rotation), and the owner's session.
 */
export async function createFixtures(server: LoadedServer): Promise<Ids> {
  const p = `/api/v1/projects/${server.projectId}`;
  const made = async (path: string, body: unknown): Promise<any> => {
    const res = await server.send('POST', path, { body });
    if (res.status !== 201) throw new Error(`fixture ${path}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body;
  };
  const rule = await made(`${p}/labeled-events`, { base_event: 'pp.page_view', url_pattern: '/docs/*', event_name: 'docs_view' });
  const insight = await made(`${p}/insights`, { name: 'Sign-up funnel', kind: 'funnel', query: { steps: [{ event: 'pp.page_view' }, { event: 'signup' }] } });
  const dashboard = await made(`${p}/dashboards`, { name: 'Board' });
  const tile = await made(`${p}/dashboards/${dashboard.id}/tiles`, { insight_id: insight.id });
  const link = await made(`${p}/share-links`, { dashboard_id: dashboard.id });
  const segment = await made(`${p}/segments`, { name: 'Pricing', filters: [{ field: 'path', op: 'eq', value: '/pricing' }] });
  const invite = await made(`/api/v1/orgs/${server.orgId}/invites`, { email: 'invited@hardening.test', role: 'viewer' });
  const release = await made(`${p}/release-tokens`, { name: 'ci' });
  const key = await made(`${p}/keys`, { type: 'server', name: 'spare' });
  const sessions = await server.send('GET', '/api/v1/me/sessions');
  return {
    id: server.projectId,
    orgID: server.orgId,
    userID: server.analystId,
    prefix: server.browserKey.prefix,
    ruleID: rule.id,
    insightID: insight.id,
    dashboardID: dashboard.id,
    tileID: tile.id,
    linkID: link.id,
    token: link.token ?? link.id,
    segmentID: segment.id,
    inviteID: invite.id,
    tokenID: release.id,
    releaseToken: release.value,
    keyID: key.id,
    sessionID: sessions.body?.items?.[0]?.id ?? 1,
  };
}

/**
 * Sends one operation's worst cases (`copies` at once each) under a health watch, as a subtest
 * named after the route: every answer within the request limit and below 500, health responsive,
 * memory bounded. Returns the answers' statuses for the suite's log.
 */
export async function sendWorstCases(t: Test, server: LoadedServer, op: Operation, requests: Array<{ path: string; body?: unknown; token: string | null; copies: number }>): Promise<number[]> {
  const statuses: number[] = [];
  await t.test(`${op.method} ${op.path}`, async (t) => {
    const watch = await watchHealth({ url: server.url, pid: server.pid });
    for (const r of requests) {
      const sent = Array.from({ length: r.copies }, () => server.send(op.method, r.path, { body: r.body, token: r.token }));
      const answers: Answer[] = await Promise.all(sent);
      for (const a of answers) {
        statuses.push(a.status);
        if (a.status === 0) t.fail(`no answer within the limit (${Math.round(a.ms)} ms): ${a.text.slice(0, 120)}`);
        else if (a.status >= 500) t.fail(`server error ${a.status}: ${a.text.slice(0, 300)}`);
      }
    }
    t.pass(`answers ${[...new Set(statuses)].join(', ')}`);
    assertHealthy(t, await watch.stop(), `${op.method} ${op.path}`);
  });
  return statuses;
}

// Helpers for the events tests: a tenant with a viewer and a server key, query strings, and
// walking every page of a list through real HTTP.

import type { TestServer, HttpResult } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, type Tenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, type TestKey } from '../support/ingest.js';

export interface EventsTenant extends Tenant {
  viewer: string;
  key: TestKey;
  eventsPath: string;
}

export async function eventsTenant(server: TestServer): Promise<EventsTenant> {
  const tenant = await createTenant(server);
  const viewer = await accessTokenFor(server, await addMember(server, tenant.org, 'viewer', { password: null }), tenant.org);
  return { ...tenant, viewer, key: createIngestKey(server, tenant.project), eventsPath: `/api/v1/projects/${tenant.project.id}/events` };
}

/** `?a=1&b=x&b=y` from an object; arrays repeat the name, undefined is left out. */
export function qs(params: Record<string, string | number | boolean | string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

/** Sends events and fails loudly unless every one was accepted. */
export async function ingestOk(server: TestServer, key: TestKey, events: unknown[], headers?: Record<string, string>): Promise<void> {
  const res = await ingestEvents(server, key, events, { headers });
  if (res.status !== 202 || res.body.accepted !== events.length) throw new Error(`ingest failed: ${res.status} ${res.text}`);
}

/** Follows next_cursor until the last page; returns every item and the pages' sizes. */
export async function allPages(
  server: TestServer,
  token: string,
  path: string,
  params: Record<string, string | number | boolean | string[] | undefined>,
  between?: (page: number, items: any[]) => Promise<void>,
): Promise<{ items: any[]; sizes: number[] }> {
  const items: any[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const res: HttpResult = await server.request('GET', path + qs({ ...params, cursor }), { token });
    if (res.status !== 200) throw new Error(`page ${page}: ${res.status} ${res.text}`);
    items.push(...res.body.items);
    sizes.push(res.body.items.length);
    if (res.body.next_cursor === null) return { items, sizes };
    cursor = res.body.next_cursor;
    if (between) await between(page, res.body.items);
  }
  throw new Error('more than 1000 pages');
}

/** A uuid whose hex digits spell `n`, so tests can name events and still know their order. */
export function uuidOf(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${hex}`;
}

// A project ready for the browser tests: a browser token bound to the loopback host the test
// pages are served from, behavior settings set through the real PATCH route, and reads of
// what the event store received, polled until it arrives or a deadline passes.
import { gunzipSync } from 'node:zlib';
import type { BehaviorSettingsPatch } from '../../../server/ingest/behaviorSettings.js';
import { addMembership, createOrganization } from '../../../server/accounts/organizations.js';
import { createProject } from '../../../server/accounts/projects.js';
import { accessTokenFor, createTestUser, type Tenant } from '../../support/factories.js';
import { createIngestKey, readTable, storedEvents, type TestKey } from '../../support/ingest.js';
import type { TestServer } from '../../support/testServer.js';
import { eventually } from '../../support/eventually.js';
import { WEB_PROPERTIES } from '../../../server/web/webFields.js';

// Pages are served from 127.0.0.1 (any port): the host a browser token must be bound to.
export const PAGE_HOST = '127.0.0.1';

export type StoredEvent = Record<string, any>;

export interface TrackedSite {
  tenant: Tenant;
  key: TestKey;
  events(): Promise<StoredEvent[]>;
  // Polls the store until `done` holds for its events; fails with what did arrive.
  waitForEvents(what: string, done: (events: StoredEvent[]) => boolean, timeoutMs?: number): Promise<StoredEvent[]>;
  // Everything stored for the project (events, links, traits, refusals, replay chunks) as one string,
  // for "this value is nowhere" assertions.
  everythingStored(): Promise<string>;
}

// createTenant's owner without a password: hashing one costs a second per test, and the
// owner here only needs an access token.
async function tenantWithoutPassword(server: TestServer): Promise<Tenant> {
  const { meta, clock } = server.running.services;
  const owner = await createTestUser(server, { password: null });
  const org = createOrganization(meta, 'Tracked site', clock.now());
  addMembership(meta, org.id, owner.id, 'owner', clock.now());
  const project = createProject(meta, { orgId: org.id, name: 'Tracked site' }, clock.now());
  return { owner, org, project };
}

export async function createTrackedSite(server: TestServer, settings?: BehaviorSettingsPatch): Promise<TrackedSite> {
  const tenant = await tenantWithoutPassword(server);
  const key = createIngestKey(server, tenant.project, { type: 'browser', domains: [PAGE_HOST] });
  if (settings) {
    const token = await accessTokenFor(server, tenant.owner, tenant.org);
    const res = await server.request('PATCH', `/api/v1/projects/${tenant.project.id}/behavior/settings`, { token, body: settings });
    if (res.status !== 200) throw new Error(`behavior settings PATCH answered ${res.status}: ${res.text}`);
  }
  const projectId = tenant.project.id;
  const events = (): Promise<StoredEvent[]> => storedEvents(server, projectId);
  return {
    tenant,
    key,
    events,
    waitForEvents: (what, done, timeoutMs) => eventually(what, events, done, timeoutMs),
    async everythingStored() {
      const parts: string[] = [];
      for (const sql of STORED_TEXT) parts.push(JSON.stringify(await readTable(server, sql, [projectId])));
      const chunks = await server.running.services.events.read(`SELECT data FROM replay_chunks WHERE project_id = $1`, [projectId]);
      for (const c of chunks) parts.push(gunzipSync((c.data as { bytes: Uint8Array }).bytes).toString('utf8'));
      return parts.join('\n');
    },
  };
}

// Every text column a project's data lands in (replay chunks, stored compressed, are read apart).
const STORED_TEXT = [
  `SELECT event, distinct_id, anonymous_id, user_id, session_id, url, path, referrer, props::VARCHAR AS props, elements::VARCHAR AS elements FROM events WHERE project_id = $1`,
  `SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1`,
  `SELECT user_id, traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1`,
  `SELECT event, code, message FROM ingest_rejections WHERE project_id = $1`,
];

export const named = (events: StoredEvent[], name: string): StoredEvent[] => events.filter((e) => e.event === name);
const DERIVED = new Set<string>(WEB_PROPERTIES);

/** The properties the tracker sent: those the server derives at ingest (docs/web-analytics.md, tested in test/web/) left out. */
export const props = (e: StoredEvent | undefined): Record<string, any> =>
  e?.props ? Object.fromEntries(Object.entries(JSON.parse(e.props) as Record<string, unknown>).filter(([k]) => !DERIVED.has(k))) : {};
export const elements = (e: StoredEvent | undefined): Array<Record<string, any>> => (e?.elements ? JSON.parse(e.elements) : []);

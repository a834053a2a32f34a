// Shared set-up for the dashboard tests: a real server, a project with members of every role and a
// stranger in another organization, a few weeks of events, and a valid body of every query kind.

import type { Test } from 'tap';
import { startTestServer, type HttpResult, type StartOptions, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, type Tenant } from '../support/factories.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';

export type Role = 'owner' | 'admin' | 'analyst' | 'viewer' | 'stranger';

export interface World {
  server: TestServer;
  tenant: Tenant;
  stranger: Tenant;
  tokens: Record<Role, string>;
  /** /api/v1/projects/<the project> */
  base: string;
  as(role: Role, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  /** New access tokens for every role, after the clock moved past the old ones' lifetime. */
  renewTokens(): Promise<void>;
}

export const RANGE = { date_from: '2026-10-01', date_to: '2026-10-31' };

/** A body each query route accepts, by kind. */
export const QUERY_BODIES: Record<string, Record<string, unknown>> = {
  funnel: { ...RANGE, steps: [{ event: 'signup' }, { event: 'purchase' }] },
  retention: { ...RANGE, start_event: 'signup', periods: 3 },
  segmentation: { ...RANGE, metric: 'events', event: 'view' },
  lifecycle: { ...RANGE },
  stickiness: { ...RANGE },
  'activity-summary': { date_to: RANGE.date_to },
  'revenue-summary': { ...RANGE },
  web: { ...RANGE },
  paths: { ...RANGE, selected_event: 'view', direction: 'after', depth: 2, mode: 'actor' },
  correlations: { ...RANGE, target_event: 'purchase', min_n: 1 },
  'activation-drivers': { ...RANGE, anchor_event: 'signup', outcome: { event: 'purchase', from_day: 1, to_day: 8 } },
  'retention/actors': { ...RANGE, start_event: 'signup', return_event: 'any', granularity: 'day', periods: 3, cohort: '2026-10-05', period: 0 },
  'paths/actors': { ...RANGE, selected_event: 'view', direction: 'after', depth: 2, mode: 'actor', step: 0, item: 'view' },
};

/**
 * Each insight's body narrowed to a saved segment (`segment:<id>`), as a person would ask for it:
 * in its filters, or in every step's for a funnel, whose filters are its steps'. The activity
 * summary takes no filters (a dashboard's are not applied to it either): it has no segmented form.
 */
export const SEGMENTED_BODIES: Record<string, ((segment: string) => Record<string, unknown>) | null> = {
  funnel: (segment) => ({ ...QUERY_BODIES.funnel, steps: (QUERY_BODIES.funnel!.steps as Array<{ filters?: unknown[] }>).map((s) => ({ ...s, filters: [...(s.filters ?? []), segment] })) }),
  retention: (segment) => ({ ...QUERY_BODIES.retention, filters: [segment] }),
  segmentation: (segment) => ({ ...QUERY_BODIES.segmentation, filters: [segment] }),
  lifecycle: (segment) => ({ ...QUERY_BODIES.lifecycle, filters: [segment] }),
  stickiness: (segment) => ({ ...QUERY_BODIES.stickiness, filters: [segment] }),
  'activity-summary': null,
  'revenue-summary': (segment) => ({ ...QUERY_BODIES['revenue-summary'], filters: [segment] }),
  web: (segment) => ({ ...QUERY_BODIES.web, filters: [segment] }),
  paths: (segment) => ({ ...QUERY_BODIES.paths, filters: [segment] }),
  correlations: (segment) => ({ ...QUERY_BODIES.correlations, filters: [segment] }),
  'activation-drivers': (segment) => ({ ...QUERY_BODIES['activation-drivers'], filters: [segment] }),
  'retention/actors': (segment) => ({ ...QUERY_BODIES['retention/actors'], filters: [segment] }),
  'paths/actors': (segment) => ({ ...QUERY_BODIES['paths/actors'], filters: [segment] }),
};

/** Six users over October: sign-ups, page views on two plans and two pages, and purchases. */
export function october(): SeedEvent[] {
  const out: SeedEvent[] = [];
  for (let u = 1; u <= 6; u++) {
    const user = `u${u}`;
    const plan = u % 2 === 0 ? 'pro' : 'free';
    const start = 3 + u;
    out.push({ event: 'signup', user_id: user, ts: `2026-10-${String(start).padStart(2, '0')}T09:00:00Z`, props: { plan } });
    for (let d = 0; d < u; d++) {
      const day = String(start + d * 2).padStart(2, '0');
      out.push({ event: 'view', user_id: user, ts: `2026-10-${day}T10:00:00Z`, url: `https://shop.example/${d % 2 ? 'pricing' : 'docs'}`, props: { plan } });
    }
    if (u % 3 !== 0) out.push({ event: 'purchase', user_id: user, ts: `2026-10-${String(start + 2).padStart(2, '0')}T11:00:00Z`, props: { plan, revenue: 10 * u } });
  }
  return out;
}

export async function world(t: Test, options: StartOptions = {}): Promise<World> {
  const server = await startTestServer(t, options);
  const tenant = await createTenant(server);
  const stranger = await createTenant(server);
  const member = (role: 'admin' | 'analyst' | 'viewer') => addMember(server, tenant.org, role, { password: null });
  const users = { owner: tenant.owner, admin: await member('admin'), analyst: await member('analyst'), viewer: await member('viewer'), stranger: stranger.owner };
  const tokens = {} as Record<Role, string>;
  const renewTokens = async () => {
    for (const role of Object.keys(users) as Role[]) tokens[role] = await accessTokenFor(server, users[role], role === 'stranger' ? stranger.org : tenant.org);
  };
  await renewTokens();
  await seedEvents(server, tenant.project.id, october());
  const base = `/api/v1/projects/${tenant.project.id}`;
  return {
    server,
    tenant,
    stranger,
    tokens,
    base,
    as: (role, method, path, body, headers) => server.request(method, path.startsWith('/') ? path : `${base}/${path}`, { token: tokens[role], body, headers }),
    renewTokens,
  };
}

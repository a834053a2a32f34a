// Random paths queries for the differential tests (test/queries/paths*.test.ts): path-cleaning
// rules, item names, scenarios with page views and session ids, and query bodies.

import fc from 'fast-check';
import { filtersArb, type Scenario } from './scenarios.js';
import type { SeedEvent } from '../support/seedEvents.js';
import type { PathRule, PathsInput } from '../oracles/paths.js';

export const USERS_ID: PathRule = { pattern: '/users/\\d+', alias: '/users/:id' };
export const RULES: PathRule[] = [USERS_ID, { pattern: '/p/\\d+', alias: '/p/:n' }, { pattern: '^/docs/(\\w+)$', alias: '/docs-\\1' }, { pattern: 'home', alias: 'start' }];
export const NAMES = ['signup', 'view', 'activate', 'purchase', 'pp.page_view', '/p/:n', '/p/1', '/home', '/start', '/docs-a'];

/** Turns some events into page views (some with a trailing slash) and gives some a session id. */
export function withPages(s: Scenario): fc.Arbitrary<Scenario> {
  const tweak = fc.record({ page: fc.boolean(), slash: fc.boolean(), session: fc.constantFrom(undefined, undefined, 's1', 's2') });
  return fc.array(tweak, { minLength: s.events.length, maxLength: s.events.length }).map((tweaks) => ({
    ...s,
    events: s.events.map((e, i) => {
      const tw = tweaks[i]!;
      const out: SeedEvent = { ...e, event: tw.page ? 'pp.page_view' : e.event, url: tw.slash ? `${e.url}/` : e.url };
      if (tw.session) out.session_id = tw.session;
      return out;
    }),
  }));
}

export const queryArb: fc.Arbitrary<Omit<PathsInput, 'date_from' | 'date_to'>> = fc
  .record({
    selected_event: fc.constantFrom(...NAMES),
    direction: fc.constantFrom('before' as const, 'after' as const),
    bound: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    depth: fc.integer({ min: 1, max: 4 }),
    mode: fc.constantFrom('actor' as const, 'session' as const),
    min_count: fc.integer({ min: 1, max: 3 }),
    top_n: fc.integer({ min: 1, max: 4 }),
    filters: fc.option(filtersArb, { nil: undefined }),
    breakdown: fc.option(fc.record({ property: fc.constantFrom('props.plan', 'path', 'props.n'), limit: fc.integer({ min: 1, max: 3 }) }), { nil: undefined }),
    exclude_events: fc.subarray(['view', '/docs-a', 'activate', '/p/1']),
  })
  .map(({ bound, ...q }) => {
    const edge = q.direction === 'after' ? { end_event: bound } : { start_event: bound };
    const exclude_events = q.exclude_events.filter((x) => x !== q.selected_event && x !== bound);
    return JSON.parse(JSON.stringify({ ...q, ...edge, exclude_events })) as Omit<PathsInput, 'date_from' | 'date_to'>;
  });

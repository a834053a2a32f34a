// Random data for the differential tests: small sets of events in a DST-crossing window of a zone
// with daylight saving, events clustered around the changes and local midnights, identities
// linked in chains, revenue with refunds, and a query range inside the window.

import fc from 'fast-check';
import type { QueryHarness } from './harness.js';
import { seedEvents, seedIdentity, type SeedEvent, type StoredEvent } from '../support/seedEvents.js';
import type { Filter } from '../oracles/common.js';

export const ZONES = ['America/New_York', 'Europe/London', 'Australia/Sydney'] as const;

interface Window {
  from: string;
  to: string;
  /** UTC instants of the DST changes inside the window (all three zones). */
  changes: string[];
}

const WINDOWS: Window[] = [
  // New York springs forward 03-08, London 03-29, Sydney falls back 04-05.
  { from: '2026-03-02', to: '2026-04-10', changes: ['2026-03-08T07:00:00Z', '2026-03-29T01:00:00Z', '2026-04-04T16:00:00Z'] },
  // Sydney springs forward 10-04, London falls back 10-25, New York 11-01.
  { from: '2026-09-28', to: '2026-11-06', changes: ['2026-10-03T16:00:00Z', '2026-10-25T01:00:00Z', '2026-11-01T06:00:00Z'] },
];

export const EVENT_NAMES = ['signup', 'view', 'activate', 'purchase'] as const;
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const ANONS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Scenario {
  tz: string;
  window: Window;
  /** Query range inside the window. */
  date_from: string;
  date_to: string;
  events: SeedEvent[];
  /** Identity links in the order they are made: [distinct id, linked to]. */
  links: Array<[string, string]>;
  now: Date;
}

const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** Events from a day before the range to two days after it, many near DST changes and midnights. */
function eventArb(window: Window, from: string, to: string): fc.Arbitrary<SeedEvent> {
  const start = Date.parse(`${from}T00:00:00Z`) - DAY;
  const span = Date.parse(`${to}T00:00:00Z`) + 3 * DAY - start;
  const anchors = window.changes.map((c) => Date.parse(c)).filter((a) => a >= start && a <= start + span);
  const near = (a: number) => fc.integer({ min: -30 * 60, max: 30 * 60 }).map((m) => a + m * 60_000);
  const instant = fc.oneof(
    ...(anchors.length > 0 ? [fc.constantFrom(...anchors).chain(near)] : []),
    // Near a UTC midnight, which is near a local midnight in one zone or another.
    fc.tuple(fc.integer({ min: 0, max: Math.floor(span / DAY) }), fc.integer({ min: -14 * 60, max: 14 * 60 })).map(([d, m]) => start + d * DAY + m * 60_000),
    fc.integer({ min: 0, max: Math.floor(span / 60_000) }).map((m) => start + m * 60_000),
  );
  return fc
    .record({
      ms: instant,
      seconds: fc.integer({ min: 0, max: 59 }),
      event: fc.constantFrom(...EVENT_NAMES),
      user: fc.option(fc.constantFrom(...USERS), { nil: undefined }),
      anon: fc.constantFrom(...ANONS),
      plan: fc.option(fc.constantFrom('free', 'pro', 'team'), { nil: undefined }),
      n: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
      page: fc.constantFrom('/p/1', '/p/2', '/home', '/docs/a'),
      amount: fc.constantFrom(10, 25.5, 100, -10, 0.25, -4, 0),
    })
    .map((r) => {
      const props: Record<string, unknown> = {};
      if (r.plan !== undefined) props.plan = r.plan;
      if (r.n !== undefined) props.n = r.n;
      // Purchases carry revenue, negative for refunds.
      if (r.event === 'purchase') props.revenue = r.amount;
      const e: SeedEvent = {
        event: r.event,
        ts: new Date(r.ms + r.seconds * 1000).toISOString(),
        anonymous_id: r.anon,
        url: `https://shop.example${r.page}`,
        props,
      };
      if (r.user !== undefined) e.user_id = r.user;
      return e;
    });
}

/** Links only point "upwards" (anonymous → user, lower user → higher user), so chains never loop. */
const linksArb: fc.Arbitrary<Array<[string, string]>> = fc.uniqueArray(
  fc.oneof(
    fc.tuple(fc.constantFrom(...ANONS), fc.constantFrom(...USERS)),
    fc
      .tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 4 }))
      .filter(([a, b]) => a < b)
      .map(([a, b]): [string, string] => [`u${a}`, `u${b}`]),
  ),
  { maxLength: 6, selector: ([from]) => from },
);

/**
 * Makes some events simultaneous on purpose: each pair (i, j) gives event i the instant of event j,
 * and with `same` also its actor, so one actor has several events at one instant.
 */
function withTies(events: SeedEvent[]): fc.Arbitrary<SeedEvent[]> {
  if (events.length < 2) return fc.constant(events);
  const index = fc.nat({ max: events.length - 1 });
  const same = fc.constantFrom(true, true, true, false);
  return fc.array(fc.record({ i: index, j: index, same }), { minLength: 1, maxLength: events.length }).map((pairs) => {
    const out = events.map((e) => ({ ...e }));
    for (const { i, j, same } of pairs) {
      out[i]!.ts = out[j]!.ts;
      if (same) {
        out[i]!.anonymous_id = out[j]!.anonymous_id;
        out[i]!.user_id = out[j]!.user_id;
      }
    }
    return out;
  });
}

export function scenarioArb(options: { minEvents?: number; maxEvents?: number; maxDays?: number; ties?: boolean } = {}): fc.Arbitrary<Scenario> {
  return fc
    .record({
      window: fc.constantFrom(...WINDOWS),
      tz: fc.constantFrom(...ZONES),
      startOffset: fc.integer({ min: 0, max: 38 }),
      length: fc.integer({ min: 1, max: options.maxDays ?? 30 }),
      nowOffsetDays: fc.integer({ min: -12, max: 8 }),
    })
    .chain((r) => {
      const date_from = addDays(r.window.from, r.startOffset);
      const date_to = [addDays(date_from, r.length - 1), r.window.to].sort()[0]!;
      const now = new Date(Date.parse(`${r.window.to}T12:00:00Z`) + r.nowOffsetDays * DAY);
      return fc.record({
        tz: fc.constant(r.tz),
        window: fc.constant(r.window),
        date_from: fc.constant(date_from),
        date_to: fc.constant(date_to),
        events: fc
          .array(eventArb(r.window, date_from, date_to), { minLength: options.minEvents ?? 0, maxLength: options.maxEvents ?? 40 })
          .chain((events) => (options.ties ? withTies(events) : fc.constant(events))),
        links: linksArb,
        now: fc.constant(now),
      });
    });
}

/** A few filters drawn from ones that exercise every kind of field and operator. */
export const filtersArb: fc.Arbitrary<Filter[]> = fc.uniqueArray(
  fc.constantFrom<Filter>(
    { field: 'props.plan', op: 'eq', value: 'pro' },
    { field: 'props.plan', op: 'neq', value: 'free' },
    { field: 'props.plan', op: 'in', value: ['pro', 'team'] },
    { field: 'props.plan', op: 'not_in', value: ['team'] },
    { field: 'props.plan', op: 'exists' },
    { field: 'props.plan', op: 'not_exists' },
    { field: 'props.n', op: 'gte', value: 3 },
    { field: 'props.n', op: 'lt', value: 3 },
    { field: 'props.n', op: 'eq', value: 2 },
    { field: 'url', op: 'contains', value: '/p/' },
    { field: 'path', op: 'starts_with', value: '/p' },
    { field: 'path', op: 'not_contains', value: 'docs' },
  ),
  { maxLength: 2, selector: (f) => JSON.stringify(f) },
);

/** Seeds a scenario into a fresh project and moves the clock to its `now`. */
export async function seedScenario(h: QueryHarness, s: Scenario): Promise<{ projectId: number; events: StoredEvent[] }> {
  const projectId = h.project(s.tz);
  h.server.clock.set(s.now);
  await h.renewToken();
  const events = await seedEvents(h.server, projectId, s.events);
  for (const [from, to] of s.links) await seedIdentity(h.server, projectId, from, to);
  return { projectId, events };
}

/** The project's local date at the scenario's `now`. */
export function todayOf(s: Scenario): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: s.tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(s.now);
}

export const RUNS = 20;

/** Several queries per seeded scenario: seeding costs more than asking, so each run asks more. */
export function several<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.array(arb, { minLength: 1, maxLength: 4 });
}

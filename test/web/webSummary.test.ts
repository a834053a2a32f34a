// The Web summary: a hand-checked Berlin example (visits split at 30 minutes, a bounce, entry and
// exit pages, tables from the entry page view, the previous period), filters that keep whole
// visits, then random data against test/oracles/webSummary.ts, DST changes included, on DuckDB and
// on one ClickHouse node.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, queryHarness, type QueryHarness } from '../queries/harness.js';
import { RUNS, scenarioArb, seedScenario, several } from '../queries/scenarios.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { webSummaryOracle } from '../oracles/webSummary.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import type { Filter } from '../oracles/common.js';

const h = await queryHarness(t);
const SITE = 'https://shop.example';
const view = (ts: string, who: string, path: string, props: Record<string, unknown> = {}): SeedEvent => ({ event: 'pp.page_view', ts, anonymous_id: who, url: `${SITE}${path}`, props });

/** The hand-checked example on `h`'s engine. */
async function berlin(t: Test, h: QueryHarness): Promise<void> {
  const p = h.project('Europe/Berlin');
  const de = { $channel: 'organic search', $referring_domain: 'google.com', $country: 'DE', $browser: 'Firefox', $os: 'Linux', $device_type: 'desktop' };
  const us = { $channel: 'social', $referring_domain: 't.co', $utm_campaign: 'launch', $country: 'US', $browser: 'Safari', $os: 'iOS', $device_type: 'mobile' };
  await seedEvents(h.server, p, [
    view('2026-05-04T08:00:00Z', 'a', '/', de), // a's visit 1 (10:00 local): /, /pricing, a click — 10 minutes
    view('2026-05-04T08:05:00Z', 'a', '/pricing', { $channel: 'internal' }),
    { event: 'pp.click', ts: '2026-05-04T08:10:00Z', anonymous_id: 'a', url: `${SITE}/pricing` },
    view('2026-05-04T09:00:00Z', 'a', '/docs', { $channel: 'direct', $country: 'DE' }), // 50 minutes later: a's visit 2, a bounce
    view('2026-05-05T22:30:00Z', 'b', '/blog', us), // b: 00:30 on 05-06 local, a bounce
    view('2026-05-03T12:00:00Z', 'c', '/', de), // the day before: the previous period
    view('2026-05-03T12:01:00Z', 'c', '/pricing', {}),
  ]);
  const res = await h.query(p, 'web', { date_from: '2026-05-04', date_to: '2026-05-06' });
  t.equal(res.status, 200, res.text);
  const b = res.body;
  t.strictSame(b.totals, { visitors: 2, visits: 3, page_views: 4, views_per_visit: 4 / 3, bounce_rate: 2 / 3, visit_duration: 200 }); // (600 + 0 + 0) s / 3
  t.strictSame(b.previous, { visitors: 1, visits: 1, page_views: 2, views_per_visit: 2, bounce_rate: 0, visit_duration: 60, date_from: '2026-05-01', date_to: '2026-05-03' });
  t.equal(b.change.visitors, 1); // 2 against 1
  t.equal(b.change.bounce_rate, null); // 0 before
  t.strictSame(
    b.series.map((s: { bucket: string; visits: number }) => [s.bucket, s.visits]),
    [
      ['2026-05-04', 2],
      ['2026-05-05', 0],
      ['2026-05-06', 1],
    ],
  );
  t.strictSame(
    b.entry_pages.map((r: { value: string; visits: number }) => [r.value, r.visits]),
    [
      ['/', 1],
      ['/blog', 1],
      ['/docs', 1],
    ],
  );
  t.strictSame(
    b.exit_pages.map((r: { value: string; visits: number }) => [r.value, r.visits]),
    [
      ['/pricing', 1],
      ['/blog', 1],
      ['/docs', 1],
    ],
  ); // ties: more page views first, then text order
  t.strictSame(b.pages[0], { value: '/', visitors: 1, visits: 1, page_views: 1 });
  t.strictSame(
    b.channels.map((r: { value: string; visitors: number }) => [r.value, r.visitors]),
    [
      ['organic search', 1],
      ['direct', 1],
      ['social', 1],
    ],
  );
  t.strictSame(b.countries, [
    { value: 'DE', visitors: 1, visits: 2, page_views: 3 },
    { value: 'US', visitors: 1, visits: 1, page_views: 1 },
  ]);
  t.strictSame(
    b.campaigns,
    [
      { value: 'launch', visitors: 1, visits: 1, page_views: 1 },
      { value: null, visitors: 1, visits: 2, page_views: 3 },
    ].sort((x, y) => y.visits - x.visits),
  );

  // A filter keeps whole visits: a's first visit holds an event with $country DE, so its /pricing view counts too.
  const de1 = await h.query(p, 'web', { date_from: '2026-05-04', date_to: '2026-05-06', filters: [{ field: 'props.$country', op: 'eq', value: 'DE' }] });
  t.strictSame(de1.body.totals, { visitors: 1, visits: 2, page_views: 3, views_per_visit: 1.5, bounce_rate: 0.5, visit_duration: 300 });
  const both = await h.query(p, 'web', {
    date_from: '2026-05-04',
    date_to: '2026-05-06',
    filters: [
      { field: 'props.$country', op: 'eq', value: 'DE' },
      { field: 'props.$device_type', op: 'eq', value: 'desktop' },
    ],
  });
  t.strictSame(both.body.totals.visits, 1); // only the first visit's entry says desktop
  const bad = await h.query(p, 'web', { date_from: '2026-05-06', date_to: '2026-05-04' });
  t.equal(bad.status, 422);
}

t.test('visits, bounces, durations and tables in Europe/Berlin', (t) => berlin(t, h));

const KEYS = ['$channel', '$country', '$device_type', '$browser', '$utm_campaign'] as const;
const VALUES: Record<(typeof KEYS)[number], string[]> = {
  $channel: ['direct', 'social', 'organic search'],
  $country: ['DE', 'US'],
  $device_type: ['mobile', 'desktop'],
  $browser: ['Chrome', 'Firefox'],
  $utm_campaign: ['spring'],
};
const webFilters: fc.Arbitrary<Filter[]> = fc.uniqueArray(
  fc.constantFrom<Filter>(
    { field: 'props.$country', op: 'eq', value: 'DE' },
    { field: 'props.$device_type', op: 'eq', value: 'mobile' },
    { field: 'props.$channel', op: 'in', value: ['social', 'direct'] },
    { field: 'path', op: 'starts_with', value: '/p' },
    { field: 'props.$browser', op: 'not_exists' },
  ),
  { maxLength: 2, selector: (f) => JSON.stringify(f) },
);

/** The random comparison on `h`'s engine, `runs` times (compactions of visit_days on DuckDB only). */
async function randomCases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  const scenario = scenarioArb({ ties: true, maxDays: 10 }).chain((s) =>
    fc
      .array(fc.record({ view: fc.boolean(), dims: fc.array(fc.nat(3), { minLength: KEYS.length, maxLength: KEYS.length }) }), { minLength: s.events.length, maxLength: s.events.length })
      .map((marks) => ({
        ...s,
        events: s.events.map((e, i) => {
          const m = marks[i]!;
          const props: Record<string, unknown> = { ...e.props };
          KEYS.forEach((k, j) => {
            const v = VALUES[k][m.dims[j]!];
            if (v !== undefined) props[k] = v;
          });
          return { ...e, event: m.view ? 'pp.page_view' : e.event, props };
        }),
      })),
  );
  await fc.assert(
    fc.asyncProperty(scenario, several(fc.record({ filters: webFilters, limit: fc.constantFrom(2, 10) })), async (s, asks) => {
      const { projectId, events } = await seedScenario(h, s);
      for (const [i, ask] of asks.entries()) {
        // Every other ask after a compaction, which gives the folded runs their visits.
        if (i % 2 === 1 && h.server.running.services.events.kind === 'duckdb') await actorDayFolder(h.server.running.services).compact();
        const input = { date_from: s.date_from, date_to: s.date_to, ...ask };
        const res = await h.query(projectId, 'web', input);
        if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
        const diff = difference(res.body, webSummaryOracle(events, s.links, input, s.tz, s.now));
        if (diff) throw new Error(`${JSON.stringify(input)} in ${s.tz}: ${diff}`);
      }
    }),
    { numRuns: runs },
  );
  t.pass('the Web summary agrees with the reference');
}

t.test('the Web summary matches the reference implementation on random data', (t) => randomCases(t, h, RUNS));

t.test('on ClickHouse, one node: the Berlin example and random data against the reference', async (t) => {
  const ch = await queryHarness(t, { engine: 'clickhouse' });
  await t.test('visits, bounces, durations and tables in Europe/Berlin', (t) => berlin(t, ch));
  await t.test('random data', (t) => randomCases(t, ch, 12));
});

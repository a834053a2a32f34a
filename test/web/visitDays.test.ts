// The Web page read from the visit_days rollup: visits across local midnight, on both DST change
// days, events arriving late for a folded day, two ids of one person and an id moving to another
// person after compaction, each answered after a full fold and compared with the same query answered from the raw events (a filter every event
// matches sends it there).

import t, { type Test } from 'tap';
import { queryHarness } from '../queries/harness.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';

const h = await queryHarness(t);
const services = h.server.running.services;
const SITE = 'https://shop.example';
const view = (ts: string, who: string, path: string, props: Record<string, unknown> = {}): SeedEvent => ({ event: 'pp.page_view', ts, anonymous_id: who, url: `${SITE}${path}`, props });
const click = (ts: string, who: string): SeedEvent => ({ event: 'pp.click', ts, anonymous_id: who, url: `${SITE}/x` });
/** No event has this property: the filter keeps every visit and makes the query read raw events. */
const EVERY = [{ field: 'props.$none', op: 'not_exists' }];

/** Computed each time: a compaction changes no answer, so the result cache would give the last one. */
const ask = (projectId: number, body: Record<string, unknown>) =>
  h.server.request('POST', `/api/v1/projects/${projectId}/queries/web`, { body, token: h.token, headers: { 'cache-control': 'no-cache' } });

/**
 * The folded answer, checked against the raw one, then again once the folder compacted (every run
 * then holds its actor's visit and its texts as numbers, which the statement reads instead of
 * joining runs); also that
 * visit_days holds the project's rows.
 */
async function folded(t: Test, projectId: number, date_from: string, date_to: string) {
  const folder = actorDayFolder(services);
  await folder.catchUp();
  const [held] = await services.events.read('SELECT count(*) AS n FROM visit_days WHERE project_id = $1', [projectId]);
  t.ok(Number(held!.n) > 0, 'visit_days holds the project');
  const fromRollup = await ask(projectId, { date_from, date_to });
  const fromRaw = await ask(projectId, { date_from, date_to, filters: EVERY });
  t.equal(fromRollup.status, 200, fromRollup.text);
  const { live_visitors: _a, ...a } = fromRollup.body;
  const { live_visitors: _b, ...b } = fromRaw.body;
  t.strictSame(a, b, 'the rollup answers as the raw events do');
  await folder.compact();
  const [unknown] = await services.events.read('SELECT count(*) AS n FROM visit_days WHERE visit_ms IS NULL');
  t.equal(Number(unknown!.n), 0, 'compacted runs hold their visit');
  const [unnumbered] = await services.events.read(
    'SELECT count(*) AS n FROM visit_days d WHERE page_views > 0 AND (exit_id IS NULL OR NOT EXISTS (SELECT 1 FROM visit_texts t WHERE t.id = d.exit_id AND t.text = d.exit.path))',
  );
  t.equal(Number(unnumbered!.n), 0, 'compacted runs hold their texts as numbers, which visit_texts turns back');
  const compacted = await ask(projectId, { date_from, date_to });
  const { live_visitors: _c, ...c } = compacted.body;
  t.strictSame(c, b, 'the compacted rollup answers as the raw events do');
  return fromRollup.body;
}

/** The project's runs as (local day, start, visit) in order. */
async function runsOf(projectId: number): Promise<string[]> {
  const rows = await services.events.read('SELECT CAST(day AS VARCHAR) AS day, first_ms, visit_ms FROM visit_days WHERE project_id = $1 ORDER BY first_ms', [projectId]);
  return rows.map((r) => `${r.day} ${new Date(Number(r.first_ms)).toISOString()} ${new Date(Number(r.visit_ms)).toISOString()}`);
}

t.test('a visit across local midnight counts once, on the day it began', async (t) => {
  const p = h.project('Europe/Berlin');
  await seedEvents(h.server, p, [
    view('2026-05-04T21:50:00Z', 'a', '/'), // 23:50 local
    view('2026-05-04T22:10:00Z', 'a', '/pricing'), // 00:10 on 05-05
    click('2026-05-04T22:30:00Z', 'a'),
    view('2026-05-05T08:00:00Z', 'a', '/docs'), // a second visit
  ]);
  const b = await folded(t, p, '2026-05-04', '2026-05-05');
  t.strictSame(b.totals, { visitors: 1, visits: 2, page_views: 3, views_per_visit: 1.5, bounce_rate: 0.5, visit_duration: 2400 / 2 }); // 21:50 to 22:30, and a bounce
  t.strictSame(
    b.series.map((s: { visits: number }) => s.visits),
    [1, 1],
  );
  t.strictSame(b.exit_pages.map((r: { value: string }) => r.value).sort(), ['/docs', '/pricing']);
  // Compacted, the run after midnight holds the visit begun the day before.
  t.strictSame(await runsOf(p), [
    '2026-05-04 2026-05-04T21:50:00.000Z 2026-05-04T21:50:00.000Z',
    '2026-05-05 2026-05-04T22:10:00.000Z 2026-05-04T21:50:00.000Z',
    '2026-05-05 2026-05-05T08:00:00.000Z 2026-05-05T08:00:00.000Z',
  ]);
  // Only the second day: the visit's events before midnight are outside the range, as before.
  const second = await folded(t, p, '2026-05-05', '2026-05-05');
  t.strictSame(second.totals.visits, 2);
});

t.test('the days DST begins and ends in Europe/Berlin', async (t) => {
  const p = h.project('Europe/Berlin');
  await seedEvents(h.server, p, [
    view('2026-03-28T22:55:00Z', 'a', '/'), // 23:55 on 03-28
    view('2026-03-28T23:20:00Z', 'a', '/spring'), // 00:20 on 03-29
    view('2026-03-29T00:50:00Z', 'b', '/'), // 01:50 CET
    view('2026-03-29T01:10:00Z', 'b', '/after'), // 03:10 CEST, 20 minutes later: one visit
    view('2026-10-25T00:50:00Z', 'c', '/'), // 02:50 CEST
    view('2026-10-25T01:15:00Z', 'c', '/again'), // 02:15 CET, 25 minutes later: one visit
    view('2026-10-25T22:50:00Z', 'c', '/late'), // 23:50 CET on 10-25
    view('2026-10-25T23:10:00Z', 'c', '/next'), // 00:10 on 10-26
  ]);
  const spring = await folded(t, p, '2026-03-28', '2026-03-29');
  t.strictSame([spring.totals.visits, spring.totals.page_views], [2, 4]);
  t.strictSame(
    spring.series.map((s: { visits: number }) => s.visits),
    [1, 1],
  );
  const autumn = await folded(t, p, '2026-10-25', '2026-10-26');
  t.strictSame([autumn.totals.visits, autumn.totals.page_views], [2, 4]);
  t.strictSame(
    autumn.series.map((s: { visits: number }) => s.visits),
    [2, 0],
  );
});

t.test('events arriving late for a folded day join, split and extend its visits', async (t) => {
  const p = h.project('America/New_York');
  await seedEvents(h.server, p, [
    view('2026-06-10T14:00:00Z', 'a', '/'),
    view('2026-06-10T15:00:00Z', 'a', '/later'), // an hour later: two visits
  ]);
  const before = await folded(t, p, '2026-06-10', '2026-06-10');
  t.equal(before.totals.visits, 2);
  await seedEvents(h.server, p, [click('2026-06-10T14:25:00Z', 'a'), click('2026-06-10T14:50:00Z', 'a')]); // bridges the hour
  const joined = await folded(t, p, '2026-06-10', '2026-06-10');
  t.strictSame([joined.totals.visits, joined.totals.bounce_rate, joined.totals.visit_duration], [1, 0, 3600]);
  await seedEvents(h.server, p, [view('2026-06-10T13:50:00Z', 'a', '/first')]); // before the entry page: the entry moves
  const earlier = await folded(t, p, '2026-06-10', '2026-06-10');
  t.strictSame(
    earlier.entry_pages.map((r: { value: string }) => r.value),
    ['/first'],
  );
  // Unfolded events are read raw beside the folded runs.
  await seedEvents(h.server, p, [view('2026-06-10T16:00:00Z', 'a', '/new')]);
  const unfolded = await h.query(p, 'web', { date_from: '2026-06-10', date_to: '2026-06-10' });
  t.ok(unfolded.body.totals.visits === 2, 'the raw event makes a visit of its own');
});

t.test('two ids of one person make one visit', async (t) => {
  const p = h.project('UTC');
  await seedEvents(h.server, p, [view('2026-07-01T10:00:00Z', 'anon', '/'), view('2026-07-01T10:20:00Z', 'phone', '/m')]);
  const apart = await folded(t, p, '2026-07-01', '2026-07-01');
  t.equal(apart.totals.visits, 2);
  await seedIdentity(h.server, p, 'anon', 'u1');
  await seedIdentity(h.server, p, 'phone', 'u1');
  const merged = await folded(t, p, '2026-07-01', '2026-07-01');
  t.strictSame([merged.totals.visitors, merged.totals.visits, merged.totals.page_views], [1, 1, 2]);
});

t.test("an id linked to another person after compaction takes its runs out of the first person's visits", async (t) => {
  const p = h.project('UTC');
  // anon's two page views are 40 minutes apart; phone's, between them, joins them while both ids are u1's.
  await seedEvents(h.server, p, [view('2026-07-02T10:00:00Z', 'anon', '/'), view('2026-07-02T10:20:00Z', 'phone', '/m'), view('2026-07-02T10:40:00Z', 'anon', '/b')]);
  await seedIdentity(h.server, p, 'anon', 'u1');
  await seedIdentity(h.server, p, 'phone', 'u1');
  const together = await folded(t, p, '2026-07-02', '2026-07-02');
  t.strictSame([together.totals.visitors, together.totals.visits], [1, 1]);
  await seedIdentity(h.server, p, 'phone', 'u2');
  const apart = await folded(t, p, '2026-07-02', '2026-07-02');
  t.strictSame([apart.totals.visitors, apart.totals.visits, apart.entry_pages.length], [2, 3, 3]);
});

t.test('an actor of several visits is one visitor of a value its visits share, across sets of entry properties', async (t) => {
  const p = h.project('UTC');
  const de = (channel: string, browser: string) => ({ $channel: channel, $country: 'DE', $browser: browser });
  await seedEvents(h.server, p, [
    view('2026-08-01T10:00:00Z', 'a', '/', de('direct', 'Firefox')),
    view('2026-08-01T12:00:00Z', 'a', '/', de('social', 'Firefox')), // a's second visit: another set, the same country and browser
    view('2026-08-02T09:00:00Z', 'a', '/docs', de('social', 'Chrome')), // a third, another day
    view('2026-08-01T10:05:00Z', 'b', '/', de('direct', 'Firefox')), // b: one visit, the set of a's first
  ]);
  const b = await folded(t, p, '2026-08-01', '2026-08-02');
  const row = (table: string, value: string) => b[table].find((r: { value: string }) => r.value === value);
  t.strictSame(row('countries', 'DE'), { value: 'DE', visitors: 2, visits: 4, page_views: 4 });
  t.strictSame(row('browsers', 'Firefox'), { value: 'Firefox', visitors: 2, visits: 3, page_views: 3 });
  t.strictSame(row('channels', 'social'), { value: 'social', visitors: 1, visits: 2, page_views: 2 });
  t.strictSame(row('entry_pages', '/'), { value: '/', visitors: 2, visits: 3, page_views: 3 });
  t.strictSame(row('pages', '/'), { value: '/', visitors: 2, visits: 3, page_views: 3 });
  t.strictSame(
    b.series.map((s: { visitors: number; visits: number }) => [s.visitors, s.visits]),
    [
      [2, 3],
      [1, 1],
    ],
  );
});

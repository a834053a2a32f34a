// Deleting a person folds again only the rollup days their events fell on (in the project's zone),
// and leaves every rollup exactly as a fold from scratch of the remaining events would: a random
// person of random events (clicks labeled; some folded, some not yet) is deleted through the API, then every
// rollup table is compared with a fresh full fold. No project is folded again from scratch, not even
// when the deletion compacts so many rows that the checkpoint renumbers the events after them.

import t from 'tap';
import fc from 'fast-check';
import { queryHarness } from '../queries/harness.js';
import { seedEvents, seedIdentity, seedSyntheticEvents, type SeedEvent } from '../support/seedEvents.js';
import { eventually } from '../support/eventually.js';
import { actorDayFolder } from '../../server/engine/rollups/actorDayFolder.js';
import { VISIT_GAP_MS } from '../../server/engine/rollups/visitDays.js';

const h = await queryHarness(t);
const services = h.server.running.services;
const folder = actorDayFolder(services);

/** Each rollup table's rows merged per key (as a compaction merges them), lists sorted, as JSON lines. */
const MERGED: Record<string, string> = {
  actor_days: `SELECT project_id, day, event, distinct_id, distinct_key, sum(events) AS events, sum(revenue) AS revenue, sum(revenue_events) AS revenue_events,
      sum(refunds) AS refunds, sum(refund_events) AS refund_events FROM actor_days GROUP BY ALL`,
  property_days: 'SELECT project_id, day, event, key, value, sum(events) AS events, sum(revenue) AS revenue, sum(revenue_events) AS revenue_events FROM property_days GROUP BY ALL',
  page_days: `SELECT project_id, day, url, sum(events) AS events, sum(page_views) AS page_views, sum(clicks) AS clicks, sum(rage_clicks) AS rage_clicks, sum(dead_clicks) AS dead_clicks,
      sum(measured) AS measured, sum(r25) AS r25, sum(r50) AS r50, sum(r75) AS r75, sum(r100) AS r100, sum(depth_sum) AS depth_sum,
      list_sort(list_distinct(flatten(list(clickers)))) AS clickers, list_sort(list_distinct(flatten(list(sessions)))) AS sessions,
      list_sort(list_distinct(flatten(list(sessionless)))) AS sessionless FROM page_days GROUP BY ALL`,
  form_days: `SELECT project_id, day, url, form, session_key, distinct_key, sum(starts) AS starts, sum(submits) AS submits, sum(abandons) AS abandons,
      list_sort(flatten(list(durations))) AS durations FROM form_days GROUP BY ALL`,
  click_cells: 'SELECT project_id, day, url, band, cx, cy, sum(clicks) AS clicks FROM click_cells GROUP BY ALL',
  click_elements: `SELECT project_id, day, url, event, chain, ex, ey, sum(clicks) AS clicks, list_sort(list_distinct(flatten(list(clickers)))) AS clickers
    FROM click_elements GROUP BY ALL`,
};

interface Run {
  first_ms: number;
  last_ms: number;
  events: number;
  page_views: number;
  entry: { ms: number; path: string; dims: string } | null;
  exit: { ms: number; path: string } | null;
  pages: Record<string, number> | null;
}

const before = (a: { ms: number; path: string; dims?: string }, b: { ms: number; path: string; dims?: string }) =>
  a.ms !== b.ms ? a.ms < b.ms : a.path !== b.path ? a.path < b.path : (a.dims ?? '') < (b.dims ?? '');

/**
 * visit_days rows are runs cut wherever a fold pass ended; joined as the Web statement joins them
 * (a run starting within 30 minutes of the latest end before it continues the visit), they are the
 * visits of each (project, day, distinct id), whatever the passes were.
 */
function visits(rows: Array<Record<string, any>>): string[] {
  const groups = new Map<string, Run[]>();
  for (const r of rows) {
    const key = `${r.project_id}|${r.day}|${r.distinct_key}`;
    const run: Run = { first_ms: Number(r.first_ms), last_ms: Number(r.last_ms), events: Number(r.events), page_views: Number(r.page_views), entry: r.entry, exit: r.exit, pages: r.pages };
    groups.set(key, [...(groups.get(key) ?? []), run]);
  }
  const out: string[] = [];
  for (const [key, runs] of groups) {
    runs.sort((a, b) => a.first_ms - b.first_ms);
    let open: Run | undefined;
    const close = () => open && out.push(`${key} ${JSON.stringify({ ...open, pages: Object.fromEntries(Object.entries(open.pages ?? {}).sort()) })}`);
    for (const run of runs) {
      if (open && run.first_ms - open.last_ms <= VISIT_GAP_MS) {
        open.last_ms = Math.max(open.last_ms, run.last_ms);
        open.events += run.events;
        open.page_views += run.page_views;
        if (run.entry && (!open.entry || before(run.entry, open.entry))) open.entry = run.entry;
        if (run.exit && (!open.exit || before(open.exit, run.exit))) open.exit = run.exit;
        const pages = { ...(open.pages ?? {}) };
        for (const [p, n] of Object.entries(run.pages ?? {})) pages[p] = (pages[p] ?? 0) + Number(n);
        open.pages = run.pages || open.pages ? pages : null;
      } else {
        close();
        open = { ...run, pages: run.pages ? Object.fromEntries(Object.entries(run.pages).map(([p, n]) => [p, Number(n)])) : null };
      }
    }
    close();
  }
  return out.sort();
}

/** Every rollup row of the installation, table by table, in a form that does not depend on how the folds were cut. */
async function rollupRows(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, sql] of Object.entries(MERGED)) {
    const rows = await services.events.read(`SELECT to_json(x)::VARCHAR AS j FROM (${sql}) x ORDER BY 1`);
    out[table] = rows.map((r) => String(r.j));
  }
  const raw = await services.events.read('SELECT to_json(v)::VARCHAR AS j FROM visit_days v');
  out.visit_days = visits(raw.map((r) => JSON.parse(String(r.j))));
  return out;
}

/** Empties every rollup and folds all events again from the first, in one pass. */
async function foldFromScratch(): Promise<void> {
  await folder.exclusive(() =>
    services.events.write(`DELETE FROM actor_days; DELETE FROM property_days; DELETE FROM page_days; DELETE FROM form_days; DELETE FROM click_cells;
      DELETE FROM click_elements; DELETE FROM visit_days; DELETE FROM actor_day_zones; DELETE FROM property_day_keys;
      UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0`),
  );
  await folder.catchUp();
}

/** Labels the project's clicks not labeled yet as a labeled-event rule would: a derived event per click, stored after it. */
async function labelClicks(projectId: number): Promise<void> {
  const columns = [
    'project_id',
    'uuid',
    'ts',
    'received_at',
    'event',
    'distinct_id',
    'anonymous_id',
    'user_id',
    'session_id',
    'source',
    'url',
    'path',
    'props',
    'rule_id',
    'source_uuid',
    'distinct_key',
  ];
  const values: Record<string, string> = { uuid: "CAST(md5(CAST(uuid AS VARCHAR) || ':1') AS UUID)", event: "'buy_click'", source: "'system'", rule_id: 'CAST(1 AS BIGINT)', source_uuid: 'uuid' };
  await services.events.write(
    `INSERT INTO events (${columns.join(', ')}) SELECT ${columns.map((c) => values[c] ?? c).join(', ')} FROM events
       WHERE project_id = $1 AND event = 'pp.click' AND rule_id IS NULL AND uuid NOT IN (SELECT source_uuid FROM events WHERE project_id = $1 AND rule_id IS NOT NULL)`,
    [projectId],
  );
}

/** Deletes the person `key` names through the API and waits for the job. */
async function deletePerson(projectId: number, key: string): Promise<Record<string, any>> {
  const res = await h.server.request('DELETE', `/api/v1/projects/${projectId}/persons/${encodeURIComponent(key)}`, { token: h.token });
  if (res.status !== 202) throw new Error(`delete: ${res.status} ${res.text}`);
  return eventually(
    'the deletion to finish',
    async () => (await h.server.request('GET', `/api/v1/projects/${projectId}/person-deletions/${res.body.id}`, { token: h.token })).body,
    (j) => j.state === 'succeeded' || j.state === 'failed',
    60_000,
  );
}

/** Log lines since `from` that tell of a project or the whole rollup folded again from scratch. */
const refoldsSince = (from: number) => h.server.logs.slice(from).filter((l) => String(l.msg).startsWith('actor days do not match') || (l.msg === 'actor days folded' && Number(l.refolded) > 0));

const ZONES = ['UTC', 'America/New_York', 'Asia/Tokyo', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
const EVENTS = ['pp.page_view', 'pp.click', 'pp.rage_click', 'pp.scroll_depth', 'pp.form_start', 'pp.form_submit', 'buy'];
const START = Date.parse('2026-03-01T00:00:00Z');

const arbEvent = fc.record({
  actor: fc.integer({ min: 0, max: 4 }),
  asUser: fc.boolean(),
  event: fc.constantFrom(...EVENTS),
  minute: fc.integer({ min: 0, max: 4 * 24 * 60 }),
  page: fc.constantFrom('/', '/pricing', '/signup'),
  plan: fc.constantFrom('free', 'pro', undefined),
  revenue: fc.option(fc.integer({ min: -20, max: 100 })),
  session: fc.integer({ min: 0, max: 2 }),
  x: fc.integer({ min: 0, max: 1400 }),
});

type ArbEvent = typeof arbEvent extends fc.Arbitrary<infer T> ? T : never;

function toSeed(e: ArbEvent, run: number): SeedEvent {
  const props: Record<string, unknown> = {};
  if (e.plan) props.plan = e.plan;
  if (e.event === 'buy' && e.revenue !== null) props.revenue = e.revenue;
  if (e.event === 'pp.scroll_depth') props.percent = (e.x % 5) * 25;
  if (e.event.startsWith('pp.form')) Object.assign(props, { form: 'signup', duration_ms: e.x });
  if (e.event.endsWith('click')) Object.assign(props, { x: e.x, y: e.x % 700, vw: 1440, ox: e.x % 100, oy: e.x % 60 });
  return {
    event: e.event,
    ts: new Date(START + e.minute * 60_000).toISOString(),
    ...(e.asUser ? { user_id: `r${run}-u${e.actor}` } : { anonymous_id: `r${run}-a${e.actor}` }),
    session_id: `r${run}-s${e.actor}-${e.session}`,
    url: `https://shop.example${e.page}`,
    props,
    ...(e.event.endsWith('click') ? { elements: [{ tag: 'button', id: 'buy', classes: ['btn'], nth_child: 1, text: 'Buy' }] } : {}),
  };
}

t.test('randomized: after a deletion every rollup holds what a fold from scratch holds', async (t) => {
  // Another project whose rows no deletion may touch.
  const other = h.project('Europe/Berlin');
  await seedEvents(h.server, other, [
    { event: 'pp.page_view', ts: '2026-03-01T23:30:00Z', anonymous_id: 'r0-a0', session_id: 's', url: 'https://shop.example/' },
    { event: 'buy', ts: '2026-03-02T10:00:00Z', user_id: 'r0-u0', props: { plan: 'pro', revenue: 30 } },
  ]);
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ZONES),
      fc.array(arbEvent, { minLength: 1, maxLength: 40 }),
      fc.array(arbEvent, { maxLength: 20 }),
      fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 3 }),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      fc.nat({ max: 30 }),
      async (zone, folded, later, linked, victim, byUser, partly) => {
        run += 1;
        const p = h.project(zone);
        await seedEvents(
          h.server,
          p,
          folded.map((e) => toSeed(e, run)),
        );
        await labelClicks(p);
        for (const a of linked) await seedIdentity(h.server, p, `r${run}-a${a}`, `r${run}-u${a}`);
        await folder.catchUp();
        // Some of the later events are folded before the deletion, the others after it.
        await seedEvents(
          h.server,
          p,
          later.map((e) => toSeed(e, run)),
        );
        await labelClicks(p);
        await folder.catchUp({ maxRows: partly });
        const key = byUser ? `r${run}-u${victim}` : `r${run}-a${victim}`;
        const stored = await services.events.read('SELECT count(*) AS n FROM events WHERE project_id = $1 AND (distinct_id = $2 OR user_id = $2 OR anonymous_id = $2)', [p, key]);
        const logged = h.server.logs.length;
        if (Number(stored[0]!.n) > 0) {
          const job = await deletePerson(p, key);
          if (job.state !== 'succeeded') throw new Error(`deletion ${JSON.stringify(job)}`);
        }
        await folder.catchUp();
        const refolds = refoldsSince(logged);
        if (refolds.length > 0) throw new Error(`folded again from scratch: ${JSON.stringify(refolds)}`);
        const after = await rollupRows();
        await foldFromScratch();
        const fresh = await rollupRows();
        for (const table of Object.keys(fresh)) {
          t.strictSame(after[table], fresh[table], `run ${run}: ${table} in ${zone} after deleting ${key}`);
          if (JSON.stringify(after[table]) !== JSON.stringify(fresh[table])) return false;
        }
        return true;
      },
    ),
    { numRuns: 20 },
  );
});

t.test('a deletion that compacts whole row groups keeps the folded point on its event', async (t) => {
  const p = h.project('America/New_York');
  // Two actors of 150,000 events each, interleaved: deleting one frees a row group's worth of rows
  // in each pair, so the checkpoint merges them and renumbers every row after the first.
  await seedSyntheticEvents(h.server, p, { count: 300_000, actors: 2, start: '2026-02-01T00:00:00Z', days: 20 });
  await seedEvents(h.server, p, [
    { event: 'late', ts: '2026-02-25T12:00:00Z', user_id: 'u0' },
    { event: 'late', ts: '2026-02-26T12:00:00Z', user_id: 'u1' },
  ]);
  await folder.catchUp();
  const [point] = await services.events.read('SELECT through_rowid AS w, through_uuid::VARCHAR AS u FROM actor_day_state');
  const logged = h.server.logs.length;
  const job = await deletePerson(p, 'u0');
  t.match(job, { state: 'succeeded', deleted_events: 150_001 });
  const [moved] = await services.events.read('SELECT through_rowid AS w, through_uuid::VARCHAR AS u FROM actor_day_state');
  t.equal(moved!.u, point!.u, 'the same event is the folded one');
  t.ok(Number(moved!.w) < Number(point!.w), `at its new rowid (${point!.w} → ${moved!.w})`);
  const [at] = await services.events.read('SELECT uuid::VARCHAR AS u FROM events WHERE rowid = $1', [Number(moved!.w)]);
  t.equal(at?.u, point!.u, 'which holds it');
  await folder.catchUp();
  t.same(refoldsSince(logged), [], 'nothing folded again from scratch');
  const after = await rollupRows();
  await foldFromScratch();
  t.strictSame(after, await rollupRows(), 'every rollup as a fold from scratch makes it');
});

// The behavior and forms reports, the form purge and element captures on ClickHouse with 2 shards ×
// 2 replicas: visitors whose ids sit on both shards, linked to actors whose other ids sit on the
// other shard, answer as on DuckDB; a purge leaves no form event on any node; a capture written on
// one node is read on the others. The cases run in test/queries/sharded.test.ts, on the cluster
// and servers it starts once for every 2 × 2 comparison, each case in projects of its own.

import type { Test } from 'tap';
import type { QueryHarness } from '../queries/harness.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { createIngestKey } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { readCapture } from '../../server/ingest/capture.js';

const IDS = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'u1', 'u2', 'u3'];
const LINKS: Array<[string, string]> = [
  ['a0', 'u1'],
  ['a1', 'u1'],
  ['a2', 'u2'],
  ['a4', 'u3'],
  ['u3', 'u1'],
];
const URLS = ['https://Shop.example/p/1?x=1', 'https://shop.example/p/1/', 'https://shop.example/#/app', 'https://shop.example'];
const CHAINS = [
  [{ tag: 'button', id: 'go', nth_child: 1, text: 'Go' }],
  [
    { tag: 'a', classes: ['x'], nth_child: 2, text: 'More' },
    { tag: 'li', nth_child: 1 },
  ],
];
const FIELDS = ['input[name="email"]', 'input[name="zip"]'];

/** Every id's page views, clicks, scroll depths and form attempts over three local days (around a DST change in Paris). */
function behaviorEvents(): SeedEvent[] {
  const out: SeedEvent[] = [];
  IDS.forEach((id, i) => {
    for (let d = 0; d < 3; d++) {
      const ts = (m: number) => `2026-03-${28 + d}T${String((i * 5 + d * 7) % 24).padStart(2, '0')}:${String(m).padStart(2, '0')}:00Z`;
      const url = URLS[(i + d) % URLS.length]!;
      const who = id.startsWith('u') ? { user_id: id } : { anonymous_id: id };
      const session = (i + d) % 3 === 0 ? {} : { session_id: `s-${id}-${d}` };
      const base = { ...who, ...session, url };
      out.push({ event: 'pp.page_view', ts: ts(0), ...base });
      out.push({ event: 'pp.click', ts: ts(1), ...base, elements: CHAINS[i % 2], props: { x: 100 + i * 90, y: 40 * d, vw: [390, 1024, 1600][i % 3], ox: i * 11, oy: d * 30 } });
      if (i % 3 === 1) out.push({ event: 'pp.rage_click', ts: ts(2), ...base, elements: CHAINS[0], props: { x: 5, y: 5 } });
      out.push({ event: 'pp.scroll_depth', ts: ts(3), ...base, props: { percent: [25, 50, 100][(i + d) % 3] } });
      out.push({ event: 'pp.form_start', ts: ts(4), ...base, props: { form: 'form#f', field: FIELDS[0] } });
      const fields = FIELDS.slice(0, 1 + ((i + d) % 2)).map((field, k) => ({ field, tag: 'input', time_ms: 1000 * (i + k), focus_count: 1 + (d % 2), corrections: k }));
      if ((i + d) % 4 === 0) out.push({ event: 'pp.form_abandon', ts: ts(5), ...base, props: { form: 'form#f', fields, last_field: fields[fields.length - 1]!.field } });
      else out.push({ event: 'pp.form_submit', ts: ts(5), ...base, props: { form: 'form#f', fields, duration_ms: 500 * (i + d), since_load_ms: 100 * i, blank_fields: d === 1 ? [FIELDS[1]] : [] } });
    }
  });
  return out;
}

const RANGE = { date_from: '2026-03-27', date_to: '2026-03-31' };
const REPORTS: Array<[string, Record<string, unknown>]> = [
  ['pages/behavior/urls', {}],
  ['pages/behavior/urls', { limit: 2 }],
  ['pages/behavior', { url: URLS[0] }],
  ['pages/behavior', { url: URLS[2] }],
  ['pages/behavior', { url: URLS[3], filters: [{ field: 'props.percent', op: 'not_exists' }] }],
  ['forms', {}],
  ['forms/detail', { form: 'form#f' }],
  ['forms/detail', { form: 'form#f', url: URLS[1] }],
];

async function get(h: QueryHarness, projectId: number, path: string, params: Record<string, unknown>) {
  const qs = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return h.server.request('GET', `/api/v1/projects/${projectId}/${path}?${qs}`, { token: h.token });
}

/** The database of the servers the cases are given (queryHarness's). */
const DATABASE = 'pp_queries';

/** The cases, on a DuckDB server and one on the 2 × 2 cluster (both started once for the file, given by `servers`). */
export function behaviorOnCluster(t: Test, servers: () => Promise<{ duckdb: QueryHarness; clickhouse: QueryHarness }>): void {
  t.test('behavior and forms: reports answer as on DuckDB, and a purge leaves no form event on any node', async (t) => {
    const { duckdb: reference, clickhouse } = await servers();
    const ch = clickhouse.clickhouse!;
    /** The project's events named so, on every node's own table. */
    const formRowsPerNode = (projectId: number): Promise<number[]> =>
      Promise.all(ch.nodes.map(async (n) => Number((await n.query(`SELECT count() FROM ${DATABASE}.events_local WHERE project_id = ${projectId} AND startsWith(event, 'pp.form_')`)).trim())));
    t.equal(new Set(IDS.map((id) => distinctKey(id) % 2n)).size, 2, 'the ids sit on both shards');
    const answers = async (h: QueryHarness) => {
      const p = h.project('Europe/Paris');
      await seedEvents(h.server, p, behaviorEvents());
      for (const [from, to] of LINKS) await seedIdentity(h.server, p, from, to);
      if (h === clickhouse) await ch.settle(DATABASE);
      const out = [];
      for (const [path, params] of REPORTS) {
        const res = await get(h, p, path, { ...RANGE, ...params });
        // A cursor is signed with the server's own key: its position is compared.
        const cursor = typeof res.body.next_cursor === 'string' ? res.body.next_cursor.split('.')[1] : res.body.next_cursor;
        out.push({ path, params, status: res.status, body: { ...res.body, next_cursor: cursor } });
      }
      return { p, out };
    };
    const duckdb = await answers(reference);
    t.same(
      duckdb.out.map((a) => [a.path, a.status, a.status === 200 ? '' : JSON.stringify(a.body)]),
      REPORTS.map(([path]) => [path, 200, '']),
      'DuckDB answers every report',
    );
    t.ok(duckdb.out.filter((a) => ((a.body.items as unknown[] | undefined) ?? []).length > 0).length >= REPORTS.length - 2, 'with rows in nearly all');
    const { p, out } = await answers(clickhouse);
    t.same(out, duckdb.out, 'every answer as on DuckDB');

    t.ok(
      (await formRowsPerNode(p)).every((n) => n > 0),
      'every node holds form events before the purge',
    );
    const res = await clickhouse.server.request('POST', `/api/v1/projects/${p}/behavior/forms/purge`, { token: clickhouse.token, headers: { 'x-confirm-purge': 'true' } });
    t.equal(res.status, 202);
    const job = await eventually(
      'the purge',
      async () => (await clickhouse.server.request('GET', `/api/v1/projects/${p}/behavior/forms/purge/${res.body.id}`, { token: clickhouse.token })).body,
      (j) => j.state === 'succeeded' || j.state === 'failed',
      60_000,
    );
    t.match(job, { state: 'succeeded', deleted_events: behaviorEvents().filter((e) => e.event.startsWith('pp.form_')).length });
    t.same(await formRowsPerNode(p), [0, 0, 0, 0], 'no node holds a form event');
    const [left] = await clickhouse.server.running.services.events.read(`SELECT count() AS n FROM events WHERE project_id = ${p}`);
    t.equal(Number(left!.n), behaviorEvents().filter((e) => !e.event.startsWith('pp.form_')).length, 'the other events are kept');
  });

  t.test('behavior: a capture written through one node is read on every node', async (t) => {
    const { clickhouse } = await servers();
    const ch = clickhouse.clickhouse!;
    const project = clickhouse.project();
    const browser = createIngestKey(clickhouse.server, { id: project }, { type: 'browser', domains: ['shop.example'] });
    const capture = {
      picker_token: 'signed.picker.token',
      nonce: 'n-1',
      url: 'https://shop.example/pricing',
      selector: 'main > button.buy',
      element: { tag: 'button', nth_child: 2, text: 'Buy' },
      chain: [{ tag: 'button', nth_child: 2, text: 'Buy' }],
    };
    t.equal((await clickhouse.server.request('POST', '/v1/capture', { token: browser.value, body: capture, headers: { origin: 'https://shop.example' } })).status, 202);
    await ch.settle(DATABASE);
    t.match(await readCapture(clickhouse.server.running.services, project, capture.picker_token), { project_id: project, nonce: 'n-1', selector: capture.selector });
    for (const n of ch.nodes) t.equal((await n.query(`SELECT count() FROM ${DATABASE}.element_captures FINAL WHERE project_id = ${project}`)).trim(), '1');
  });
}

// The behavior and forms reports, the form purge and the picker's element captures on ClickHouse
// (one node): the random comparison with the reference reports (as reports.test.ts runs it on
// DuckDB), a purge that leaves no form event or label of one and keeps the others, and captures stored, replaced
// and read back.

import t from 'tap';
import { queryHarness } from '../queries/harness.js';
import { randomReports } from './randomReports.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { createIngestKey } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { readCapture } from '../../server/ingest/capture.js';

const h = await queryHarness(t, { engine: 'clickhouse' });
const { services } = h.server.running;

async function get(projectId: number, path: string, params: Record<string, unknown> = {}) {
  const qs = new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  return h.server.request('GET', `/api/v1/projects/${projectId}/${path}${qs.size > 0 ? `?${qs}` : ''}`, { token: h.token });
}

t.test('random events agree with the reference reports on ClickHouse', (t) => randomReports(t, h, get, 6));

/** Events by name of one project, each once. */
async function eventCounts(projectId: number): Promise<Record<string, number>> {
  const rows = await services.events.read(`SELECT event, count() AS n FROM events FINAL WHERE project_id = ${projectId} GROUP BY event ORDER BY event`);
  return Object.fromEntries(rows.map((r) => [String(r.event), Number(r.n)]));
}

const uuid = (i: number) => `0b6f2a52-8e2a-4e7c-9d38-5b0a3f2f0a${String(i).padStart(2, '0')}`;
const FORMS: SeedEvent[] = [
  { event: 'pp.page_view', ts: '2026-10-20T10:00:00Z', anonymous_id: 'a', url: 'https://shop.example/signup' },
  { event: 'pp.form_start', ts: '2026-10-20T10:00:05Z', anonymous_id: 'a', url: 'https://shop.example/signup', props: { form: 'form#signup', field: 'email' } },
  { event: 'pp.form_submit', ts: '2026-10-20T10:01:00Z', anonymous_id: 'a', url: 'https://shop.example/signup', props: { form: 'form#signup', duration_ms: 55_000 } },
  { event: 'pp.form_start', ts: '2026-10-21T09:00:00Z', anonymous_id: 'b', url: 'https://shop.example/signup', props: { form: 'form#signup', field: 'email' } },
  { event: 'pp.form_abandon', ts: '2026-10-21T09:03:00Z', anonymous_id: 'b', url: 'https://shop.example/signup', props: { form: 'form#signup', last_field: 'email' } },
  { event: 'signup', ts: '2026-10-20T10:01:01Z', user_id: 'user' },
].map((e, i) => ({ ...e, uuid: uuid(i) }));

t.test('a form purge deletes every form event of the project, and nothing else', async (t) => {
  const project = h.project();
  const sibling = h.project();
  await seedEvents(h.server, project, FORMS);
  // Stored twice, as a batch loaded again after a crash: counted once, deleted whole.
  await seedEvents(h.server, project, FORMS.slice(1, 3));
  await seedEvents(h.server, sibling, FORMS);
  // Labels derived over history: the form submit's goes with it, the page view's stays.
  for (const [base, name] of [
    ['pp.form_submit', 'submitted_form'],
    ['pp.page_view', 'viewed_page'],
  ]) {
    const rule = await h.server.request('POST', `/api/v1/projects/${project}/labeled-events`, { body: { base_event: base, event_name: name }, token: h.token });
    t.equal(rule.status, 201, rule.text);
    await eventually(
      `the ${name} rule derived over history`,
      () => h.server.request('GET', `/api/v1/projects/${project}/labeled-events/${rule.body.id}`, { token: h.token }),
      (r) => r.body.materialization?.state === 'succeeded',
      60_000,
    );
  }
  t.match(await eventCounts(project), { submitted_form: 1, viewed_page: 1 }, 'the labels are derived');
  const range = { date_from: '2026-10-19', date_to: '2026-10-22' };
  t.match((await get(project, 'forms', range)).body.items, [{ form: 'form#signup', starts: 2, submits: 1, abandons: 1 }]);
  const purge = async () => {
    const res = await h.server.request('POST', `/api/v1/projects/${project}/behavior/forms/purge`, { token: h.token, headers: { 'x-confirm-purge': 'true' } });
    t.equal(res.status, 202);
    return eventually(
      'the purge',
      async () => (await h.server.request('GET', `/api/v1/projects/${project}/behavior/forms/purge/${res.body.id}`, { token: h.token })).body,
      (job) => job.state === 'succeeded' || job.state === 'failed',
      30_000,
    );
  };
  t.match(await purge(), { state: 'succeeded', deleted_events: 5, error: null }, 'each form event and label counted once');
  t.same(await eventCounts(project), { 'pp.page_view': 1, signup: 1, viewed_page: 1 }, 'the form events and their label are gone, the others kept');
  const [raw] = await services.events.read(`SELECT count() AS n FROM events WHERE project_id = ${project} AND startsWith(event, 'pp.form_')`);
  t.equal(Number(raw!.n), 0, 'no copy is left in any part');
  t.same(await eventCounts(sibling), { 'pp.form_abandon': 1, 'pp.form_start': 2, 'pp.form_submit': 1, 'pp.page_view': 1, signup: 1 }, 'another project keeps its form events');
  t.same((await get(project, 'forms', range)).body.items, [], 'the forms report is empty');
  t.match(await purge(), { state: 'succeeded', deleted_events: 0 }, 'nothing left to delete');
});

t.test('element captures: stored under the token hash, a later one replaces it', async (t) => {
  const project = h.project();
  const browser = createIngestKey(h.server, { id: project }, { type: 'browser', domains: ['shop.example'] });
  const page = { origin: 'https://shop.example' };
  const capture = {
    picker_token: 'signed.picker.token',
    nonce: 'n-1',
    url: 'https://shop.example/pricing',
    selector: 'main > button.buy',
    element: { tag: 'button', classes: ['buy'], nth_child: 2, text: 'Buy \'now\' \\ "today"' },
    chain: [
      { tag: 'button', classes: ['buy'], nth_child: 2, text: 'Buy' },
      { tag: 'main', nth_child: 1, attributes: { role: 'main' } },
    ],
  };
  // A received time with milliseconds, read back to the millisecond.
  const at = new Date(Math.floor(h.server.clock.now().getTime() / 1000) * 1000 + 1123);
  h.server.clock.set(at);
  t.equal((await h.server.request('POST', '/v1/capture', { token: browser.value, body: capture, headers: page })).status, 202);
  t.same(await readCapture(services, project, capture.picker_token), {
    project_id: project,
    nonce: 'n-1',
    url: capture.url,
    selector: capture.selector,
    element: capture.element,
    chain: capture.chain,
    received_at: at.toISOString(),
  });
  t.equal((await h.server.request('POST', '/v1/capture', { token: browser.value, body: { ...capture, nonce: 'n-2', selector: 'button.buy' }, headers: page })).status, 202);
  t.match(await readCapture(services, project, capture.picker_token), { nonce: 'n-2', selector: 'button.buy' }, 'the later capture under the token');
  t.equal(await readCapture(services, project, 'another.token'), undefined);
  t.equal(await readCapture(services, h.project(), capture.picker_token), undefined, 'not under another project');
  const [stored] = await services.events.read('SELECT count() AS n FROM element_captures FINAL');
  t.equal(Number(stored!.n), 1);
});

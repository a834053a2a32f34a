// A row stored twice before its parts merge (a batch loaded again) counts once in every insight on
// ClickHouse: the same requests answer the same before and after every stored row is copied, with
// merges stopped so that the copies stay.

import t from 'tap';
import { startClickHouse } from '../../support/clickhouseCluster.js';
import { startTestServer } from '../../support/testServer.js';
import { eventsTenant, ingestOk } from '../../events/eventsKit.js';

const NOW = new Date('2026-11-02T12:00:00Z');

/** Requests whose statements count copies differently: distinct actors and days, counts, sums, a funnel. */
const REQUESTS: Array<[string, unknown]> = [
  ['lifecycle', { date_from: '2026-10-20', date_to: '2026-10-31' }],
  ['stickiness', { event: 'view', date_from: '2026-10-01', date_to: '2026-10-31' }],
  ['activity-summary', { date_to: '2026-10-31' }],
  ['segmentation', { metric: 'uniques', event: 'any', date_from: '2026-10-01', date_to: '2026-10-31', group_by: { property: 'props.plan', limit: 1 } }],
  ['segmentation', { metric: 'events', event: 'any', date_from: '2026-10-01', date_to: '2026-10-31' }],
  ['segmentation', { metric: 'revenue', event: 'purchase', date_from: '2026-10-01', date_to: '2026-10-31' }],
  ['retention', { start_event: 'view', return_event: 'any', granularity: 'day', periods: 5, date_from: '2026-10-20', date_to: '2026-10-25' }],
  ['retention', { start_event: 'view', return_event: 'any', granularity: 'day', periods: 5, value: 'revenue', date_from: '2026-10-20', date_to: '2026-10-25' }],
  ['revenue-summary', { date_from: '2026-10-01', date_to: '2026-10-31' }],
  ['funnel', { date_from: '2026-10-01', date_to: '2026-10-31', window_hours: 48, steps: [{ event: 'view' }, { event: 'view' }, { event: 'purchase' }], count_by: 'totals' }],
];

t.test('rows stored twice count once in every insight on ClickHouse', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const server = await startTestServer(t, { now: NOW, settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_copies' } });
  const w = await eventsTenant(server);
  // Six actors over the month, views every few days, purchases with revenue (a refund among them).
  const events = Array.from({ length: 60 }, (_, n) => ({
    event: n % 5 === 4 ? 'purchase' : 'view',
    anonymous_id: `anon-${n % 6}`,
    ts: new Date(Date.UTC(2026, 9, 1 + ((n * 7) % 30), 8 + (n % 9), n)).toISOString(),
    props: { plan: n % 3 === 0 ? 'pro' : 'free', ...(n % 5 === 4 ? { revenue: n % 10 === 9 ? -5 : 20 + n } : {}) },
  }));
  await ingestOk(server, w.key, events);
  const answers = async () => {
    const out: unknown[] = [];
    for (const [path, body] of REQUESTS) {
      const res = await server.request('POST', `/api/v1/projects/${w.project.id}/queries/${path}`, { body, token: w.viewer, headers: { 'cache-control': 'no-cache' } });
      out.push({ path, status: res.status, body: res.body });
    }
    return out;
  };
  const before = await answers();
  t.ok(
    before.every((a) => (a as { status: number }).status === 200),
    'every request answers',
  );
  const node = ch.nodes[0]!;
  await node.query('SYSTEM STOP MERGES');
  await node.query('INSERT INTO pp_copies.events SELECT * FROM pp_copies.events');
  const [stored, distinct] = (await node.query('SELECT count(), uniqExact(uuid) FROM pp_copies.events FORMAT TSV')).trim().split('\t').map(Number);
  t.equal(stored, 2 * distinct!, 'every event is stored twice');
  t.same(await answers(), before, 'every answer as before the copies');
});

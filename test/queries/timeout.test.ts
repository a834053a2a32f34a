// Time limits: a query over a heavy table with its own limit forced down to 1 ms is interrupted
// and answered 408 `query_timeout` (even when the limit passes during statement preparation);
// other queries keep the general limit; the server stays healthy.

import t from 'tap';
import { queryHarness } from './harness.js';
import { seedSyntheticEvents } from '../support/seedEvents.js';

t.test('408 query_timeout when a query exceeds its configured limit', async (t) => {
  const h = await queryHarness(t, { settings: { 'query_timeouts.funnel': 1, 'query_timeouts.segmentation': 1 } });
  const p = h.project('America/New_York');
  await seedSyntheticEvents(h.server, p, { count: 300_000, actors: 20_011, start: '2026-03-01T00:00:00Z', days: 30 });
  const range = { date_from: '2026-03-01', date_to: '2026-03-30' };

  const funnel = await h.query(p, 'funnel', { ...range, steps: [{ event: 'e0' }, { event: 'e1' }, { event: 'e2' }, { event: 'e3' }] });
  t.equal(funnel.status, 408);
  t.equal(funnel.body.error.code, 'query_timeout');
  t.equal(funnel.body.error.message, 'query exceeded its 1 ms time limit');
  t.same(funnel.body.error.details.timeout_ms, 1);

  const segmentation = await h.query(p, 'segmentation', { ...range, metric: 'uniques', event: 'any', group_by: { property: 'props.plan' } });
  t.equal(segmentation.status, 408);

  // The summaries keep query_timeout_ms and complete; the interrupted connections were reusable.
  const summary = await h.query(p, 'revenue-summary', range);
  t.equal(summary.status, 200);
  t.equal(summary.body.active_actors, 20_011);
  const stickiness = await h.query(p, 'stickiness', range);
  t.equal(stickiness.status, 200);
});

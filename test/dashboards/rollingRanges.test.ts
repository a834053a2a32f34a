// Rolling date ranges over HTTP: an insight or a dashboard saved with `date_range` is answered over
// the dates the rule stands for on the project's local today, so it moves forward as days pass;
// a dashboard's range (fixed or rolling) comes before the insight's; share links follow the same
// rule; fixed and rolling exclude each other; bad rules are 422 with the field named.

import t from 'tap';
import { world, QUERY_BODIES } from './world.js';
import { rollingDates } from '../../server/engine/rollingRange.js';

const funnel = QUERY_BODIES.funnel!;

t.test('rolling ranges', async (t) => {
  // 2026-11-02 12:00Z; the world's events are in October.
  const w = await world(t);
  const { server } = w;
  /** The clock moved: time passes, and the members sign in again. */
  const move = async (ms: number) => {
    server.clock.advance(ms);
    await w.renewTokens();
  };
  const days = (res: { body: { date_from: string; date_to: string } }) => `${res.body.date_from}..${res.body.date_to}`;

  await t.test('an insight with a rolling range answers over it, and moves with the calendar', async (t) => {
    const made = await w.as('analyst', 'POST', 'insights', { name: 'Rolling funnel', kind: 'funnel', query: funnel, date_range: 'last_30_days' });
    t.equal(made.status, 201);
    t.equal(made.body.date_range, 'last_30_days');
    t.equal((await w.as('viewer', 'GET', `insights/${made.body.id}`)).body.date_range, 'last_30_days');
    const first = await w.as('viewer', 'POST', `insights/${made.body.id}/result`);
    t.equal(first.status, 200);
    t.equal(days(first), '2026-10-04..2026-11-02', 'today and the 29 days before');
    const direct = await w.as('viewer', 'POST', 'queries/funnel', { ...funnel, date_from: '2026-10-04', date_to: '2026-11-02' });
    t.same(first.body, direct.body, 'what the query route answers for those dates');
    t.equal(direct.headers.get('x-pp-cache'), 'hit', 'from the same cache entry');
    await move(10 * 86_400_000);
    const later = await w.as('viewer', 'POST', `insights/${made.body.id}/result`);
    t.equal(days(later), '2026-10-14..2026-11-12', 'ten days later, ten days on');
    t.not(JSON.stringify(later.body.steps), JSON.stringify(first.body.steps), 'fewer of October’s events are in the range');
    const call = await w.as('viewer', 'POST', `insights/${made.body.id}/result`, { date_from: '2026-10-01', date_to: '2026-10-31' });
    t.equal(days(call), '2026-10-01..2026-10-31', 'a call’s fixed dates come first');
    const callRolling = await w.as('viewer', 'POST', `insights/${made.body.id}/result`, { date_range: 'last_month' });
    t.equal(days(callRolling), '2026-10-01..2026-10-31', 'and so does its rolling range');
    const fixed = await w.as('analyst', 'PATCH', `insights/${made.body.id}`, { date_range: null });
    t.equal(fixed.body.date_range, null);
    t.equal(days(await w.as('viewer', 'POST', `insights/${made.body.id}/result`)), '2026-10-01..2026-10-31', 'null goes back to the query’s own dates');
    const kept = await w.as('analyst', 'PATCH', `insights/${made.body.id}`, { date_range: 'this_month' });
    t.equal((await w.as('analyst', 'PATCH', `insights/${made.body.id}`, { name: 'Renamed' })).body.date_range, 'this_month', 'a change that leaves it out keeps it');
    t.equal(days(await w.as('viewer', 'POST', `insights/${kept.body.id}/result`)), '2026-11-01..2026-11-12');
    await move(-10 * 86_400_000);
  });

  await t.test('a dashboard’s rolling range replaces its tiles’ dates', async (t) => {
    const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Fixed', kind: 'funnel', query: funnel, date_range: 'last_7_days' })).body;
    const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Rolling board', date_range: 'last_month' })).body;
    t.match(board, { date_range: 'last_month', date_from: null, date_to: null });
    const tile = (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body;
    const path = `dashboards/${board.id}/tiles/${tile.id}/result`;
    t.equal(days(await w.as('viewer', 'POST', path)), '2026-10-01..2026-10-31', 'the dashboard’s rule before the insight’s');
    const toFixed = await w.as('analyst', 'PATCH', `dashboards/${board.id}`, { date_from: '2026-10-10', date_to: '2026-10-12' });
    t.match(toFixed.body, { date_range: null, date_from: '2026-10-10', date_to: '2026-10-12' }, 'fixed dates drop the rule');
    t.equal(days(await w.as('viewer', 'POST', path)), '2026-10-10..2026-10-12');
    const toRolling = await w.as('analyst', 'PATCH', `dashboards/${board.id}`, { date_range: 'since_2026-10-20' });
    t.match(toRolling.body, { date_range: 'since_2026-10-20', date_from: null, date_to: null }, 'a rule drops fixed dates');
    t.equal(days(await w.as('viewer', 'POST', path)), '2026-10-20..2026-11-02');
    const cleared = await w.as('analyst', 'PATCH', `dashboards/${board.id}`, { date_range: null });
    t.match(cleared.body, { date_range: null, date_from: null, date_to: null });
    t.equal(days(await w.as('viewer', 'POST', path)), '2026-10-27..2026-11-02', 'without a dashboard range, the insight’s own rule');
    t.equal((await w.as('viewer', 'GET', 'dashboards')).body.items.find((d: { id: number }) => d.id === board.id).date_range, null);
  });

  await t.test('share links resolve the rule when they are opened', async (t) => {
    const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Shared rolling', kind: 'funnel', query: funnel, date_range: 'this_week' })).body;
    const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Shared board', date_range: 'last_2_weeks' })).body;
    const tile = (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body;
    const insightLink = (await w.as('admin', 'POST', 'share-links', { insight_id: insight.id })).body;
    const boardLink = (await w.as('admin', 'POST', 'share-links', { dashboard_id: board.id })).body;
    const open = (token: string, rest = '') => server.request(rest ? 'POST' : 'GET', `/api/v1/shared/${token}${rest}`);
    t.equal((await open(insightLink.token)).body.insight.date_range, 'this_week', 'the public view names the rule');
    t.equal((await open(boardLink.token)).body.dashboard.date_range, 'last_2_weeks');
    t.equal(days(await open(insightLink.token, '/result')), '2026-11-02..2026-11-02', 'a Monday: this week is today');
    t.equal(days(await open(boardLink.token, `/tiles/${tile.id}/result`)), '2026-10-20..2026-11-02');
    await move(3 * 86_400_000);
    t.equal(days(await open(insightLink.token, '/result')), '2026-11-02..2026-11-05', 'three days later');
    t.equal(days(await open(boardLink.token, `/tiles/${tile.id}/result`)), '2026-10-23..2026-11-05');
    await move(-3 * 86_400_000);
  });

  await t.test('today is the project’s: a time zone where it is still yesterday', async (t) => {
    const patched = await w.as('owner', 'PATCH', '', { timezone: 'America/Los_Angeles' });
    t.equal(patched.status, 200);
    // 2026-11-02 05:30Z is 2026-11-01 22:30 in Los Angeles, the day its clocks went back.
    server.clock.set('2026-11-02T05:30:00Z');
    await w.renewTokens();
    const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Zoned', kind: 'funnel', query: funnel, date_range: 'today' })).body;
    t.equal(days(await w.as('viewer', 'POST', `insights/${insight.id}/result`)), '2026-11-01..2026-11-01');
    t.same(rollingDates('today', '2026-11-01'), { date_from: '2026-11-01', date_to: '2026-11-01' });
    const future = await w.as('analyst', 'POST', 'insights', { name: 'Later', kind: 'funnel', query: funnel, date_range: 'since_2026-11-02' });
    t.equal(future.status, 422, 'since a day that is tomorrow there');
    t.match(future.body.error, { details: { field: 'date_range' }, message: /after today \(2026-11-01/ });
    server.clock.set('2026-11-02T12:00:00Z');
    await w.renewTokens();
    await w.as('owner', 'PATCH', '', { timezone: 'UTC' });
  });

  await t.test('bad rules and mixed ranges are 422 with the field named', async (t) => {
    const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Target', kind: 'funnel', query: funnel })).body;
    const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Target board' })).body;
    for (const [method, path, body, message] of [
      ['POST', 'insights', { name: 'x', kind: 'funnel', query: funnel, date_range: 'last_401_days' }, /pattern|more than 400/],
      ['POST', 'insights', { name: 'x', kind: 'funnel', query: funnel, date_range: 'last_58_weeks' }, /more than 57 weeks/],
      ['POST', 'insights', { name: 'x', kind: 'funnel', query: funnel, date_range: 'fortnight' }, /pattern/],
      ['PATCH', `insights/${insight.id}`, { date_range: 'since_2026-02-30' }, /calendar date/],
      ['POST', 'dashboards', { name: 'x', date_range: 'last_14_months' }, /more than 13 months/],
      ['POST', 'dashboards', { name: 'x', date_range: 'last_month', date_from: '2026-10-01', date_to: '2026-10-02' }, /either date_range or date_from and date_to/],
      ['PATCH', `dashboards/${board.id}`, { date_range: 'this_year', date_to: '2026-10-02' }, /either date_range|both date_from and date_to/],
      ['POST', `insights/${insight.id}/result`, { date_range: 'last_week', date_from: '2026-10-01', date_to: '2026-10-02' }, /either date_range or date_from and date_to/],
      ['POST', `insights/${insight.id}/result`, { date_range: 'yesterweek' }, /pattern/],
    ] as Array<[string, string, unknown, RegExp]>) {
      const res = await w.as('analyst', method, path, body);
      t.equal(res.status, 422, `${method} ${path} ${JSON.stringify(body)}`);
      t.match(res.body.error.message, message);
    }
    t.equal((await w.as('viewer', 'PATCH', `dashboards/${board.id}`, { date_range: 'last_week' })).status, 403, 'viewers cannot set it');
    t.equal((await w.as('stranger', 'PATCH', `dashboards/${board.id}`, { date_range: 'last_week' })).status, 404);
  });
});

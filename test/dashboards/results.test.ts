// Answers of saved insights and dashboard tiles: exactly what the query route answers for the body
// with the overrides (dashboard date range replacing the query's, dashboard filters AND-ed to its
// own), from the same result cache (a hit for the query route's entry and back), fresh after new
// events, and with the query's entitlement refusals.

import t from 'tap';
import { world, QUERY_BODIES, RANGE } from './world.js';
import { createIngestKey, ingestEvents } from '../support/ingest.js';
import { grantEntitlements } from '../support/license.js';
import { createSegment } from '../../server/accounts/segments.js';

const OVERRIDES = { date_from: '2026-10-05', date_to: '2026-10-20', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] };

/** The body the query route would be given for a saved query with these overrides. */
function merged(kind: string, query: Record<string, any>, o: typeof OVERRIDES): Record<string, unknown> {
  if (kind === 'activity-summary') return { ...query, date_to: o.date_to };
  const range = { date_from: o.date_from, date_to: o.date_to };
  // A funnel has filters per step only: the dashboard's go to every step.
  if (kind === 'funnel') return { ...query, ...range, steps: query.steps.map((s: { filters?: unknown[] }) => ({ ...s, filters: [...(s.filters ?? []), ...o.filters] })) };
  return { ...query, ...range, filters: [...(query.filters ?? []), ...o.filters] };
}

t.test('answers of insights and tiles', async (t) => {
  const w = await world(t);
  const { server } = w;
  await grantEntitlements(server, ['actor_drilldown', 'saved_segments']);
  const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Overrides', ...OVERRIDES })).body;
  const tiles = new Map<string, { insight: number; tile: number }>();
  for (const [kind, base] of Object.entries(QUERY_BODIES)) {
    // A filter of the query's own, where it takes one, to show the dashboard's are added to it.
    const own = [{ field: 'path', op: 'neq', value: '/nowhere' }];
    const query = kind === 'activity-summary' ? base : kind === 'funnel' ? { ...base, steps: [{ event: 'signup', filters: own }, { event: 'purchase' }] } : { ...base, filters: own };
    const insight = (await w.as('analyst', 'POST', 'insights', { name: kind, kind, query })).body;
    const tile = (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body;
    tiles.set(kind, { insight: insight.id, tile: tile.id });
  }
  await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { text: 'not a query' });

  await t.test('a tile answers what its query route answers for the merged body', async (t) => {
    for (const [kind, ids] of tiles) {
      const insight = (await w.as('viewer', 'GET', `insights/${ids.insight}`)).body;
      const direct = await w.as('viewer', 'POST', `queries/${kind}`, merged(kind, insight.query, OVERRIDES), { 'cache-control': 'no-cache' });
      t.equal(direct.status, 200, `${kind}: the query route takes the merged body`);
      const tile = await w.as('viewer', 'POST', `dashboards/${board.id}/tiles/${ids.tile}/result`);
      t.equal(tile.status, 200, kind);
      t.same(tile.body, direct.body, `${kind}: the same answer`);
      t.equal(tile.headers.get('x-pp-cache'), 'hit', `${kind}: the query route's cache entry`);
      const plain = await w.as('viewer', 'POST', `insights/${ids.insight}/result`);
      const unmerged = await w.as('viewer', 'POST', `queries/${kind}`, insight.query);
      t.same(plain.body, unmerged.body, `${kind}: without overrides, the saved body's answer`);
      t.equal(unmerged.headers.get('x-pp-cache'), 'hit', `${kind}: the insight's answer filled the cache for the route`);
    }
    const funnel = await w.as('viewer', 'POST', `dashboards/${board.id}/tiles/${tiles.get('funnel')!.tile}/result`);
    t.match(funnel.body, { date_from: OVERRIDES.date_from, date_to: OVERRIDES.date_to }, 'the dashboard’s range replaced the query’s');
    const plainFunnel = await w.as('viewer', 'POST', `insights/${tiles.get('funnel')!.insight}/result`);
    t.match(plainFunnel.body, RANGE);
    t.not(JSON.stringify(funnel.body.steps), JSON.stringify(plainFunnel.body.steps), 'the overrides change the figures');
  });

  await t.test('a result call takes its own overrides, checked like a dashboard’s', async (t) => {
    const id = tiles.get('segmentation')!.insight;
    const body = { date_from: '2026-10-10', date_to: '2026-10-12', filters: [{ field: 'props.plan', op: 'eq', value: 'free' }] };
    const res = await w.as('viewer', 'POST', `insights/${id}/result`, body);
    const saved = (await w.as('viewer', 'GET', `insights/${id}`)).body.query;
    const direct = await w.as('viewer', 'POST', 'queries/segmentation', merged('segmentation', saved, body));
    t.equal(direct.headers.get('x-pp-cache'), 'hit');
    t.same(res.body, direct.body);
    t.equal(res.body.series[0].points.length, 3, 'three days');
    for (const [bad, field] of [
      [{ date_from: '2026-10-10' }, 'date_to'],
      [{ date_from: '2026-10-12', date_to: '2026-10-10' }, 'date_from'],
      [{ filters: [{ field: 'props.plan', op: 'gt', value: 'x' }] }, 'filters[0].value'],
      [{ colour: 1 }, 'colour'],
    ] as Array<[unknown, string]>) {
      const refused = await w.as('viewer', 'POST', `insights/${id}/result`, bad);
      t.equal(refused.status, 422, JSON.stringify(bad));
      t.equal(refused.body.error.details.field, field);
    }
    const tooMany = await w.as('viewer', 'POST', `insights/${id}/result`, { filters: Array.from({ length: 20 }, () => body.filters[0]) });
    t.equal(tooMany.status, 422, 'with the saved filter, more than the query takes');
    t.match(tooMany.body.error, { details: { field: 'query.filters' } });
    t.equal((await server.request('POST', `${w.base}/insights/${id}/result`)).status, 401);
    t.equal((await w.as('stranger', 'POST', `insights/${id}/result`)).status, 404);
    t.equal((await w.as('viewer', 'POST', 'insights/987654/result')).status, 404);
    t.equal((await w.as('viewer', 'POST', 'insights/x/result')).status, 400);
  });

  await t.test('tile results: 401, 404 for a text tile, a foreign or missing tile', async (t) => {
    const path = (tile: number | string, dashboard: number = board.id) => `dashboards/${dashboard}/tiles/${tile}/result`;
    const funnelTile = tiles.get('funnel')!.tile;
    t.equal((await server.request('POST', `${w.base}/${path(funnelTile)}`)).status, 401);
    t.equal((await w.as('stranger', 'POST', path(funnelTile))).status, 404);
    const text = (await w.as('viewer', 'GET', `dashboards/${board.id}`)).body.tiles.find((x: { kind: string }) => x.kind === 'text');
    t.equal((await w.as('viewer', 'POST', path(text.id))).status, 404, 'a text tile has no answer');
    const other = (await w.as('analyst', 'POST', 'dashboards', { name: 'Other' })).body;
    t.equal((await w.as('viewer', 'POST', path(funnelTile, other.id))).status, 404, 'a tile of another dashboard');
    t.equal((await w.as('viewer', 'POST', path(987654))).status, 404);
    t.equal((await w.as('viewer', 'POST', path('x'))).status, 400);
    await w.as('analyst', 'DELETE', `dashboards/${other.id}`);
  });

  await t.test('the cache: a hit while events are unchanged, a miss after new ones, no-cache bypasses', async (t) => {
    const path = `dashboards/${board.id}/tiles/${tiles.get('segmentation')!.tile}/result`;
    const before = await w.as('viewer', 'POST', path);
    t.equal(before.headers.get('x-pp-cache'), 'hit');
    const bypass = await w.as('viewer', 'POST', path, undefined, { 'cache-control': 'no-cache' });
    t.equal(bypass.headers.get('x-pp-cache'), 'bypass');
    t.equal(bypass.text, before.text);
    const key = createIngestKey(server, w.tenant.project);
    const ingested = await ingestEvents(server, key, [{ event: 'view', user_id: 'u2', ts: '2026-10-10T15:00:00Z', props: { plan: 'pro' } }]);
    t.equal(ingested.status, 202);
    const after = await w.as('viewer', 'POST', path);
    t.equal(after.headers.get('x-pp-cache'), 'miss', 'new events of the project');
    const total = (body: { series: Array<{ points: Array<{ value: number }> }> }) => body.series[0]!.points.reduce((n, p) => n + p.value, 0);
    t.equal(total(after.body), total(before.body) + 1, 'the new event counts');
    t.equal((await w.as('viewer', 'POST', path)).headers.get('x-pp-cache'), 'hit');
    t.equal((await w.as('viewer', 'POST', `insights/${tiles.get('segmentation')!.insight}/result`)).headers.get('x-pp-cache'), 'miss', 'the insight alone, too');
  });

  await t.test('entitlement refusals and missing segments pass through', async (t) => {
    await grantEntitlements(server, []);
    const actors = tiles.get('retention/actors')!;
    for (const path of [`insights/${actors.insight}/result`, `dashboards/${board.id}/tiles/${actors.tile}/result`]) {
      const res = await w.as('viewer', 'POST', path);
      t.equal(res.status, 403, path);
      t.match(res.body.error, { code: 'entitlement_required', details: { entitlement: 'actor_drilldown' } });
    }
    const segment = createSegment(server.running.services.meta, w.tenant.project.id, { name: 'pro', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] }, 1, server.clock.now());
    const segmented = (await w.as('analyst', 'POST', 'dashboards', { name: 'Segmented', filters: [`segment:${segment.id}`] })).body;
    const tile = (await w.as('analyst', 'POST', `dashboards/${segmented.id}/tiles`, { insight_id: tiles.get('lifecycle')!.insight })).body;
    const refused = await w.as('viewer', 'POST', `dashboards/${segmented.id}/tiles/${tile.id}/result`);
    t.equal(refused.status, 403);
    t.match(refused.body.error, { code: 'entitlement_required', details: { entitlement: 'saved_segments' } });
    await grantEntitlements(server, ['saved_segments']);
    const allowed = await w.as('viewer', 'POST', `dashboards/${segmented.id}/tiles/${tile.id}/result`);
    t.equal(allowed.status, 200);
    const direct = await w.as('viewer', 'POST', 'queries/lifecycle', { ...QUERY_BODIES.lifecycle, filters: [{ field: 'path', op: 'neq', value: '/nowhere' }, `segment:${segment.id}`] });
    t.same(allowed.body, direct.body);
    const missing = await w.as('analyst', 'PATCH', `dashboards/${segmented.id}`, { filters: ['segment:987654'] });
    t.equal(missing.status, 200, 'a dashboard may name a segment that is gone');
    const gone = await w.as('viewer', 'POST', `dashboards/${segmented.id}/tiles/${tile.id}/result`);
    t.equal(gone.status, 422, 'its tiles answer as the query route would');
    t.equal((await w.as('viewer', 'POST', 'queries/lifecycle', { ...QUERY_BODIES.lifecycle, filters: ['segment:987654'] })).status, 422);
  });
});

// Dashboards, share links and saved segments over the insights ClickHouse answers: the same world
// (October's events) on a DuckDB server and on a ClickHouse server (one node), a dashboard with a
// tile of every insight ClickHouse answers (segmentation and the summaries at least) under a saved
// segment, its share link's public tiles, and queries naming the segment, all answered the same.

import t from 'tap';
import { world, QUERY_BODIES, SEGMENTED_BODIES, type World } from './world.js';
import { grantEntitlements } from '../support/license.js';
import { startClickHouse } from '../support/clickhouseCluster.js';
import { createSegment } from '../../server/accounts/segments.js';

/** Insights every ClickHouse installation answers by now; others join the dashboard once they do. */
const REQUIRED = ['segmentation', 'activity-summary', 'revenue-summary'];

/** The insights (not actor lists, which a share link does not show) this server answers, the required ones first. */
async function answered(w: World): Promise<string[]> {
  const kinds = [...REQUIRED, ...Object.keys(QUERY_BODIES).filter((k) => !REQUIRED.includes(k) && !k.endsWith('/actors'))];
  const out: string[] = [];
  for (const kind of kinds) if ((await w.as('viewer', 'POST', `queries/${kind}`, QUERY_BODIES[kind])).status === 200) out.push(kind);
  return out;
}

async function answers(w: World, kinds: readonly string[]): Promise<unknown> {
  await grantEntitlements(w.server, ['actor_drilldown', 'saved_segments']);
  const pro = createSegment(w.server.running.services.meta, w.tenant.project.id, { name: 'pro', filters: [{ field: 'props.plan', op: 'eq', value: 'pro' }] }, 1, w.server.clock.now());
  const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Pro KPIs', date_from: '2026-10-05', date_to: '2026-10-25', filters: [`segment:${pro.id}`] })).body;
  const tiles: Array<{ kind: string; id: number }> = [];
  for (const kind of kinds) {
    const insight = (await w.as('analyst', 'POST', 'insights', { name: kind, kind, query: QUERY_BODIES[kind] })).body;
    tiles.push({ kind, id: (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body.id });
  }
  const link = (await w.as('admin', 'POST', 'share-links', { dashboard_id: board.id })).body.token as string;
  const out: unknown[] = [];
  for (const tile of tiles) {
    const signedIn = await w.as('viewer', 'POST', `dashboards/${board.id}/tiles/${tile.id}/result`);
    const shared = await w.server.request('POST', `/api/v1/shared/${link}/tiles/${tile.id}/result`);
    const segmentedBody = SEGMENTED_BODIES[tile.kind]?.(`segment:${pro.id}`);
    const segmented = segmentedBody && (await w.as('viewer', 'POST', `queries/${tile.kind}`, segmentedBody));
    out.push({ kind: tile.kind, tile: [signedIn.status, signedIn.body], shared: [shared.status, shared.body], segmented: segmented && [segmented.status, segmented.body] });
  }
  return out;
}

t.test('dashboards, share links and saved segments on ClickHouse answer as on DuckDB', async (t) => {
  const duckdbWorld = await world(t);
  const ch = await startClickHouse(t, 'single');
  const clickhouseWorld = await world(t, { settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': 'pp_dashboards' } });
  t.same(Object.keys(SEGMENTED_BODIES).sort(), Object.keys(QUERY_BODIES).sort(), 'every kind of the world has its segmented form (or none)');
  const kinds = await answered(clickhouseWorld);
  t.same(kinds.slice(0, REQUIRED.length), REQUIRED, `ClickHouse answers ${kinds.join(', ')}`);
  const duckdb = (await answers(duckdbWorld, kinds)) as Array<{ kind: string; tile: [number, unknown]; shared: [number, unknown]; segmented?: [number, unknown] }>;
  for (const a of duckdb) {
    t.equal(a.tile[0], 200, `${a.kind}: the tile answers on DuckDB`);
    if (a.segmented) t.equal(a.segmented[0], 200, `${a.kind}: the query naming the segment answers on DuckDB`);
    t.same(a.shared, a.tile, `${a.kind}: its share link answers as the tile`);
  }
  t.same(await answers(clickhouseWorld, kinds), duckdb, 'every tile, shared tile and segmented query as on DuckDB');
});

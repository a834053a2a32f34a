// Dashboards over HTTP: who may read and write them, the checks of the date range and filters, PATCH
// semantics (fields left out stay, null clears, a layout names every tile once), tiles of both kinds
// with their limits, the per-project limit, and the audit of deletes.

import t from 'tap';
import { world, QUERY_BODIES } from './world.js';
import { listAudit } from '../../server/audit/recordAudit.js';
import { DASHBOARD_LIMITS } from '../../server/dashboards/dashboards.js';

const FILTER = { field: 'props.plan', op: 'eq', value: 'pro' };

t.test('dashboards', async (t) => {
  const w = await world(t);
  const { server, tenant } = w;
  const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Funnel', kind: 'funnel', query: QUERY_BODIES.funnel })).body;

  await t.test('POST /dashboards: 401, 422, 403, 404, 201', async (t) => {
    t.equal((await server.request('POST', `${w.base}/dashboards`, { body: { name: 'x' } })).status, 401);
    const cases: Array<[unknown, string, RegExp]> = [
      [{}, 'name', /name is required/],
      [{ name: ' ' }, 'name', /name must not be blank/],
      [{ name: 'x'.repeat(201) }, 'name', /more than 200/],
      [{ name: 'x', date_from: '2026-10-01' }, 'date_to', /needs both date_from and date_to/],
      [{ name: 'x', date_to: '2026-10-01' }, 'date_from', /needs both date_from and date_to/],
      [{ name: 'x', date_from: '2026-10-05', date_to: '2026-10-01' }, 'date_from', /date_from 2026-10-05 is after date_to 2026-10-01/],
      [{ name: 'x', date_from: '1 Oct', date_to: '2026-10-01' }, 'date_from', /must match format "date"/],
      [{ name: 'x', filters: [{ field: 'props.plan', op: 'in', value: 'pro' }] }, 'filters[0].value', /op in needs a non-empty array/],
      [{ name: 'x', filters: [{ field: 'colour', op: 'eq', value: 1 }] }, 'filters[0].field', /must match pattern/],
      [{ name: 'x', filters: Array.from({ length: 21 }, () => FILTER) }, 'filters', /must NOT have more than 20 items/],
      [{ name: 'x', layout: [] }, 'layout', /is not a known field/],
    ];
    for (const [body, field, message] of cases) {
      const res = await w.as('analyst', 'POST', 'dashboards', body);
      t.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      t.equal(res.body.error.details.field, field);
      t.match(res.body.error.message, message);
    }
    t.equal((await w.as('viewer', 'POST', 'dashboards', { name: 'x' })).status, 403);
    t.equal((await w.as('stranger', 'POST', 'dashboards', { name: 'x' })).status, 404);
    const made = await w.as('analyst', 'POST', 'dashboards', { name: 'KPIs', description: 'weekly', date_from: '2026-10-01', date_to: '2026-10-15', filters: [FILTER] });
    t.equal(made.status, 201);
    t.same(made.body, {
      id: made.body.id,
      project_id: tenant.project.id,
      name: 'KPIs',
      description: 'weekly',
      date_from: '2026-10-01',
      date_to: '2026-10-15',
      date_range: null,
      filters: [FILTER],
      created_by: made.body.created_by,
      updated_by: made.body.updated_by,
      created_at: '2026-11-02T12:00:00.000Z',
      updated_at: '2026-11-02T12:00:00.000Z',
      tiles: [],
    });
    t.match(made.body.created_by, { id: Number, email: /^analyst-/, name: null });
    const bare = await w.as('analyst', 'POST', 'dashboards', { name: 'Bare' });
    t.match(bare.body, { description: null, date_from: null, date_to: null, filters: null });
    const list = await w.as('viewer', 'GET', 'dashboards');
    t.same(
      list.body.items.map((d: { name: string; tile_count: number }) => [d.name, d.tile_count]),
      [
        ['Bare', 0],
        ['KPIs', 0],
      ],
      'by name, with tile counts',
    );
    t.notOk('tiles' in list.body.items[0], 'a summary has no tiles');
    t.equal((await server.request('GET', `${w.base}/dashboards`)).status, 401);
    t.equal((await w.as('stranger', 'GET', 'dashboards')).status, 404);
    for (const d of list.body.items) t.equal((await w.as('analyst', 'DELETE', `dashboards/${d.id}`)).status, 204);
  });

  await t.test('tiles: add, change, remove, layout', async (t) => {
    const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Grid' })).body;
    const tiles = `dashboards/${board.id}/tiles`;

    t.equal((await server.request('POST', `${w.base}/${tiles}`, { body: { text: 'x' } })).status, 401);
    for (const [body, field, message] of [
      [{}, 'insight_id', /either an insight \(insight_id\) or a text/],
      [{ insight_id: insight.id, text: 'x' }, 'insight_id', /either an insight/],
      [{ text: '' }, 'text', /fewer than 1 characters/],
      [{ text: 'x'.repeat(4001) }, 'text', /more than 4000 characters/],
      [{ text: 'x', width: 13 }, 'width', /must be <= 12/],
      [{ text: 'x', height: 0 }, 'height', /must be >= 1/],
    ] as Array<[unknown, string, RegExp]>) {
      const res = await w.as('analyst', 'POST', tiles, body);
      t.equal(res.status, 422, JSON.stringify(body).slice(0, 60));
      t.equal(res.body.error.details.field, field);
      t.match(res.body.error.message, message);
    }
    t.equal((await w.as('viewer', 'POST', tiles, { text: 'x' })).status, 403);
    t.equal((await w.as('stranger', 'POST', tiles, { text: 'x' })).status, 404);
    t.equal((await w.as('analyst', 'POST', 'dashboards/987654/tiles', { text: 'x' })).status, 404);
    const foreign = (
      await server.request('POST', `/api/v1/projects/${w.stranger.project.id}/insights`, { token: w.tokens.stranger, body: { name: 'theirs', kind: 'lifecycle', query: QUERY_BODIES.lifecycle } })
    ).body;
    const refused = await w.as('analyst', 'POST', tiles, { insight_id: foreign.id });
    t.equal(refused.status, 422, 'an insight of another project');
    t.match(refused.body.error, { message: `insight ${foreign.id} is not a saved insight of this project`, details: { field: 'insight_id' } });

    server.clock.advance(1000);
    const first = await w.as('analyst', 'POST', tiles, { insight_id: insight.id });
    t.equal(first.status, 201);
    t.match(first.body, { id: Number, position: 0, width: 6, height: 3, kind: 'insight', text: null, insight: { id: insight.id, name: 'Funnel', kind: 'funnel' } });
    const note = (await w.as('analyst', 'POST', tiles, { text: 'Read me', width: 12, height: 1 })).body;
    t.match(note, { position: 1, width: 12, height: 1, kind: 'text', text: 'Read me', insight: null });
    const third = (await w.as('analyst', 'POST', tiles, { insight_id: insight.id, width: 4, height: 2 })).body;
    t.equal(third.position, 2, 'the same insight may show twice');
    const got = (await w.as('viewer', 'GET', `dashboards/${board.id}`)).body;
    t.same(
      got.tiles.map((x: { id: number }) => x.id),
      [first.body.id, note.id, third.id],
    );
    t.equal(got.updated_at, '2026-11-02T12:00:01.000Z', 'adding a tile changes the dashboard');
    t.match(got.tiles[0].insight, { dashboards: [{ id: board.id, name: 'Grid' }] });

    const one = `${tiles}/${note.id}`;
    t.equal((await server.request('PATCH', `${w.base}/${one}`, { body: { width: 3 } })).status, 401);
    const textOnInsight = await w.as('analyst', 'PATCH', `${tiles}/${first.body.id}`, { text: 'x' });
    t.equal(textOnInsight.status, 422);
    t.match(textOnInsight.body.error, { message: 'an insight tile has no text; only text tiles take one', details: { field: 'text' } });
    t.equal((await w.as('analyst', 'PATCH', one, { width: 0 })).status, 422);
    t.equal((await w.as('viewer', 'PATCH', one, { width: 3 })).status, 403);
    t.equal((await w.as('analyst', 'PATCH', `${tiles}/987654`, { width: 3 })).status, 404);
    t.equal((await w.as('analyst', 'PATCH', `${tiles}/abc`, { width: 3 })).status, 400);
    t.same((await w.as('analyst', 'PATCH', one, { width: 3 })).body, { ...note, width: 3 }, 'only the size changes');
    t.same((await w.as('analyst', 'PATCH', one, { text: 'New text', height: 2 })).body, { ...note, width: 3, height: 2, text: 'New text' });

    const other = (await w.as('analyst', 'POST', 'dashboards', { name: 'Other' })).body;
    t.equal((await w.as('analyst', 'PATCH', `dashboards/${other.id}/tiles/${note.id}`, { width: 3 })).status, 404, 'a tile of another dashboard');
    t.equal((await w.as('analyst', 'DELETE', `dashboards/${other.id}/tiles/${note.id}`)).status, 404);

    const board2 = `dashboards/${board.id}`;
    const layout = (ids: number[]) => ids.map((id, i) => ({ id, width: 2 + i, height: 1 + i }));
    for (const [items, field, message] of [
      [layout([first.body.id, note.id]), 'layout', new RegExp(`layout leaves out tile ${third.id}`)],
      [layout([first.body.id, note.id, third.id, note.id]), 'layout[3].id', /is listed twice/],
      [layout([first.body.id, note.id, 987654]), 'layout[2].id', /tile 987654 is not on this dashboard/],
      [[{ id: first.body.id, width: 13, height: 1 }], 'layout[0].width', /must be <= 12/],
      [[{ id: first.body.id }], 'layout[0].width', /is required/],
    ] as Array<[unknown, string, RegExp]>) {
      const res = await w.as('analyst', 'PATCH', board2, { layout: items });
      t.equal(res.status, 422, JSON.stringify(items).slice(0, 60));
      t.equal(res.body.error.details.field, field);
      t.match(res.body.error.message, message);
    }
    const other2 = (await w.as('analyst', 'POST', `dashboards/${other.id}/tiles`, { text: 'elsewhere' })).body;
    t.equal((await w.as('analyst', 'PATCH', board2, { layout: layout([first.body.id, note.id, third.id, other2.id]) })).status, 422, 'a tile of another dashboard');
    t.equal((await w.as('viewer', 'PATCH', board2, { layout: layout([third.id, first.body.id, note.id]) })).status, 403);
    const rearranged = await w.as('analyst', 'PATCH', board2, { layout: layout([third.id, first.body.id, note.id]) });
    t.equal(rearranged.status, 200);
    t.same(
      rearranged.body.tiles.map((x: { id: number; position: number; width: number; height: number }) => [x.id, x.position, x.width, x.height]),
      [
        [third.id, 0, 2, 1],
        [first.body.id, 1, 3, 2],
        [note.id, 2, 4, 3],
      ],
      'the new order and sizes',
    );
    t.equal(rearranged.body.name, 'Grid', 'fields left out stay');
    const rejected = (await w.as('viewer', 'GET', board2)).body;
    t.same(
      rejected.tiles.map((x: { id: number }) => x.id),
      [third.id, first.body.id, note.id],
      'kept',
    );

    t.equal((await server.request('DELETE', `${w.base}/${tiles}/${first.body.id}`)).status, 401);
    t.equal((await w.as('viewer', 'DELETE', `${tiles}/${first.body.id}`)).status, 403);
    t.equal((await w.as('analyst', 'DELETE', `${tiles}/${first.body.id}`)).status, 204);
    t.equal((await w.as('analyst', 'DELETE', `${tiles}/${first.body.id}`)).status, 404);
    const left = (await w.as('viewer', 'GET', board2)).body;
    t.same(
      left.tiles.map((x: { id: number; position: number }) => [x.id, x.position]),
      [
        [third.id, 0],
        [note.id, 1],
      ],
    );
    t.equal((await w.as('viewer', 'GET', `insights/${insight.id}`)).status, 200, 'removing a tile keeps its insight');
    for (const d of [board, other]) await w.as('analyst', 'DELETE', `dashboards/${d.id}`);
  });

  await t.test('PATCH /dashboards/{id}: left out stays, null clears, ranges checked with the stored end', async (t) => {
    const made = (await w.as('analyst', 'POST', 'dashboards', { name: 'Range', date_from: '2026-10-01', date_to: '2026-10-15', filters: [FILTER] })).body;
    const one = `dashboards/${made.id}`;
    t.equal((await server.request('PATCH', `${w.base}/${one}`, { body: {} })).status, 401);
    t.equal((await w.as('viewer', 'PATCH', one, { name: 'x' })).status, 403);
    t.equal((await w.as('stranger', 'PATCH', one, { name: 'x' })).status, 404);
    t.equal((await w.as('analyst', 'PATCH', 'dashboards/987654', { name: 'x' })).status, 404);
    t.equal((await w.as('analyst', 'PATCH', 'dashboards/0', { name: 'x' })).status, 400);
    const later = await w.as('analyst', 'PATCH', one, { date_from: '2026-10-20' });
    t.equal(later.status, 422, 'after the stored date_to');
    t.match(later.body.error, { message: 'date_from 2026-10-20 is after date_to 2026-10-15', details: { field: 'date_from' } });
    const half = await w.as('analyst', 'PATCH', one, { date_from: null });
    t.equal(half.status, 422, 'clearing one end');
    t.equal(half.body.error.details.field, 'date_from');
    t.match((await w.as('analyst', 'PATCH', one, { date_to: '2026-10-31' })).body, { date_from: '2026-10-01', date_to: '2026-10-31', filters: [FILTER], name: 'Range' });
    t.match((await w.as('analyst', 'PATCH', one, { description: 'd', filters: null })).body, { description: 'd', filters: null, date_from: '2026-10-01' });
    const cleared = (await w.as('owner', 'PATCH', one, { date_from: null, date_to: null, name: 'Renamed' })).body;
    t.match(cleared, { name: 'Renamed', description: 'd', date_from: null, date_to: null, filters: null, updated_by: { email: /^owner-/ } });

    t.equal((await server.request('DELETE', `${w.base}/${one}`)).status, 401);
    t.equal((await w.as('viewer', 'DELETE', one)).status, 403);
    t.equal((await w.as('stranger', 'DELETE', one)).status, 404);
    t.equal((await w.as('analyst', 'DELETE', one)).status, 204);
    t.equal((await w.as('viewer', 'GET', one)).status, 404);
    t.match(listAudit(server.running.services, { action: 'dashboard.delete' })[0], { target: String(made.id), details: { project_id: tenant.project.id, name: 'Renamed' } });
  });

  await t.test(`at most ${DASHBOARD_LIMITS.tiles} tiles per dashboard and ${DASHBOARD_LIMITS.per_project} dashboards per project`, async (t) => {
    const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Full' })).body;
    for (let i = 0; i < DASHBOARD_LIMITS.tiles; i++) t.equal((await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { text: `t${i}` })).status, 201);
    const full = await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id });
    t.equal(full.status, 422);
    t.match(full.body.error, { message: /at most 40 tiles/, details: { limit: 40, field: 'insight_id' } });
    const services = server.running.services;
    const at = services.clock.now().toISOString();
    const insert = services.meta.prepare('INSERT INTO dashboards (project_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)');
    services.meta.transaction(() => {
      for (let i = 1; i < DASHBOARD_LIMITS.per_project; i++) insert.run(tenant.project.id, `bulk ${i}`, at, at);
    })();
    const refused = await w.as('analyst', 'POST', 'dashboards', { name: 'one too many' });
    t.equal(refused.status, 422);
    t.match(refused.body.error, { message: /at most 100 dashboards/, details: { limit: 100 } });
    services.meta.prepare("DELETE FROM dashboards WHERE name LIKE 'bulk %'").run();
    t.equal((await w.as('analyst', 'DELETE', `dashboards/${board.id}`)).status, 204);
    t.equal((await w.as('analyst', 'POST', 'dashboards', { name: 'room again' })).status, 201);
  });
});

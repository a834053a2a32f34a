// Saved insights over HTTP: who may read and write them, the checks of a saved query (its route's
// schema and semantic rules), the per-project limit, ordering and the kind filter, the dashboards
// an insight shows on, its deletion taking its tiles along, and the audit of deletes.

import t from 'tap';
import { world, QUERY_BODIES } from './world.js';
import { listAudit } from '../../server/audit/recordAudit.js';
import { INSIGHT_LIMITS } from '../../server/dashboards/insights.js';
import { QUERIES } from '../../server/queries/index.js';

const funnel = { name: 'Sign-up to purchase', kind: 'funnel', query: QUERY_BODIES.funnel };

t.test('saved insights', async (t) => {
  const w = await world(t);
  const { server, tenant } = w;

  await t.test('every query kind can be saved, and a bad query is refused as its route refuses it', async (t) => {
    t.same(Object.keys(QUERY_BODIES).sort(), QUERIES.map((q) => q.path).sort(), 'the tests know every kind');
    for (const [kind, query] of Object.entries(QUERY_BODIES)) {
      const res = await w.as('analyst', 'POST', 'insights', { name: `A ${kind}`, kind, query });
      t.equal(res.status, 201, kind);
      t.same(res.body.query, query, `${kind}: the body is kept as sent`);
    }
    const list = await w.as('viewer', 'GET', 'insights');
    t.equal(list.body.items.length, Object.keys(QUERY_BODIES).length);
    for (const res of [...list.body.items]) t.equal((await w.as('analyst', 'DELETE', `insights/${res.id}`)).status, 204);
  });

  await t.test('POST /insights: 401, 422, 403, 404, 201', async (t) => {
    t.equal((await server.request('POST', `${w.base}/insights`, { body: funnel })).status, 401);
    const cases: Array<[unknown, string, RegExp]> = [
      [{ ...funnel, name: '' }, 'name', /name must NOT have fewer than 1 characters/],
      [{ ...funnel, name: '   ' }, 'name', /name must not be blank/],
      [{ ...funnel, name: 'x'.repeat(201) }, 'name', /name must NOT have more than 200 characters/],
      [{ ...funnel, description: 'x'.repeat(2001) }, 'description', /description must NOT have more than 2000 characters/],
      [{ ...funnel, kind: 'nope' }, 'kind', /must be one of/],
      [{ ...funnel, query: 'x' }, 'query', /query must be object/],
      [{ name: 'n', kind: 'funnel' }, 'query', /query is required/],
      [{ ...funnel, extra: 1 }, 'extra', /extra is not a known field/],
      [{ ...funnel, query: { steps: [{ event: 'a' }] } }, 'query.steps', /query.steps must NOT have fewer than 2 items/],
      [{ ...funnel, query: { ...QUERY_BODIES.funnel, colour: 'red' } }, 'query.colour', /query.colour is not a known field/],
      [{ ...funnel, query: { ...QUERY_BODIES.funnel, date_from: '2026-11-01' } }, 'query.date_from', /date_from/],
      [{ ...funnel, kind: 'segmentation', query: { metric: 'events' } }, 'query.event', /query.event is required/],
    ];
    for (const [body, field, message] of cases) {
      const res = await w.as('analyst', 'POST', 'insights', body);
      t.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.details.field, field);
      t.match(res.body.error.message, message);
    }
    t.equal((await w.as('viewer', 'POST', 'insights', funnel)).status, 403);
    t.equal((await w.as('stranger', 'POST', 'insights', funnel)).status, 404, 'another organization’s project');
    t.equal((await server.request('POST', '/api/v1/projects/999999/insights', { token: w.tokens.analyst, body: funnel })).status, 404);
    const made = await w.as('analyst', 'POST', 'insights', { ...funnel, name: '  Sign-up to purchase  ' });
    t.equal(made.status, 201);
    t.match(made.body, {
      id: Number,
      project_id: tenant.project.id,
      name: 'Sign-up to purchase',
      description: null,
      kind: 'funnel',
      query: QUERY_BODIES.funnel,
      created_by: { id: Number, email: /^analyst-/, name: null },
      updated_by: { id: Number, email: /^analyst-/ },
      created_at: '2026-11-02T12:00:00.000Z',
      updated_at: '2026-11-02T12:00:00.000Z',
      dashboards: [],
    });
  });

  await t.test('GET, PATCH, DELETE one insight; list order and kind filter', async (t) => {
    const a = (await w.as('analyst', 'POST', 'insights', { ...funnel, name: 'A' })).body;
    server.clock.advance(1000);
    const b = (await w.as('analyst', 'POST', 'insights', { name: 'B', kind: 'lifecycle', query: QUERY_BODIES.lifecycle, description: 'weekly' })).body;
    const one = `insights/${a.id}`;

    t.equal((await server.request('GET', `${w.base}/${one}`)).status, 401);
    t.equal((await w.as('viewer', 'GET', 'insights/abc')).status, 400, 'a bad path id');
    t.equal((await w.as('stranger', 'GET', one)).status, 404);
    t.equal((await w.as('viewer', 'GET', 'insights/987654')).status, 404);
    t.same((await w.as('viewer', 'GET', one)).body, a);

    const list = (await w.as('viewer', 'GET', 'insights')).body.items.map((i: { name: string }) => i.name);
    t.same(list.slice(0, 2), ['B', 'A'], 'most recently changed first');
    t.same(
      (await w.as('viewer', 'GET', 'insights?kind=lifecycle')).body.items.map((i: { id: number }) => i.id),
      [b.id],
    );
    t.equal((await w.as('viewer', 'GET', 'insights?kind=pie')).status, 422);

    t.equal((await server.request('PATCH', `${w.base}/${one}`, { body: { name: 'x' } })).status, 401);
    t.equal((await w.as('analyst', 'PATCH', one, { kind: 'lifecycle' })).status, 422, 'the kind cannot change');
    const badQuery = await w.as('analyst', 'PATCH', one, { query: QUERY_BODIES.lifecycle });
    t.equal(badQuery.status, 422, 'a query of another kind');
    t.equal(badQuery.body.error.details.field, 'query.steps');
    t.equal((await w.as('viewer', 'PATCH', one, { name: 'x' })).status, 403);
    t.equal((await w.as('analyst', 'PATCH', 'insights/987654', { name: 'x' })).status, 404);
    server.clock.advance(1000);
    const renamed = await w.as('analyst', 'PATCH', one, { name: 'A2', description: 'why' });
    t.equal(renamed.status, 200);
    t.match(renamed.body, { name: 'A2', description: 'why', query: QUERY_BODIES.funnel, updated_at: '2026-11-02T12:00:02.000Z' });
    const requery = await w.as('owner', 'PATCH', one, { query: { ...QUERY_BODIES.funnel, window_hours: 24 }, description: null });
    t.match(requery.body, { name: 'A2', description: null, query: { window_hours: 24 }, updated_by: { email: /^owner-/ } });
    t.same((await w.as('viewer', 'GET', 'insights')).body.items[0].id, a.id, 'the changed one comes first');

    t.equal((await server.request('DELETE', `${w.base}/${one}`)).status, 401);
    t.equal((await w.as('viewer', 'DELETE', one)).status, 403);
    t.equal((await w.as('stranger', 'DELETE', one)).status, 404);
    t.equal((await w.as('analyst', 'DELETE', one)).status, 204);
    t.equal((await w.as('viewer', 'GET', one)).status, 404);
    t.equal((await w.as('analyst', 'DELETE', one)).status, 404, 'gone');
    const audit = listAudit(server.running.services, { action: 'insight.delete' });
    t.match(audit[0], { org_id: tenant.org.id, target: String(a.id), outcome: 'success', details: { project_id: tenant.project.id, name: 'A2', kind: 'funnel' } });
    t.equal((await w.as('analyst', 'DELETE', `insights/${b.id}`)).status, 204);
  });

  await t.test('deleting an insight removes its tiles; dashboards list the insights they show', async (t) => {
    const insight = (await w.as('analyst', 'POST', 'insights', funnel)).body;
    const other = (await w.as('analyst', 'POST', 'insights', { ...funnel, name: 'kept' })).body;
    const boards = [];
    for (const name of ['Zeta', 'Alpha']) boards.push((await w.as('analyst', 'POST', 'dashboards', { name })).body);
    for (const b of boards) {
      await w.as('analyst', 'POST', `dashboards/${b.id}/tiles`, { insight_id: insight.id });
      await w.as('analyst', 'POST', `dashboards/${b.id}/tiles`, { text: 'note' });
      await w.as('analyst', 'POST', `dashboards/${b.id}/tiles`, { insight_id: other.id });
    }
    const shown = await w.as('viewer', 'GET', `insights/${insight.id}`);
    t.same(
      shown.body.dashboards,
      [
        { id: boards[1].id, name: 'Alpha' },
        { id: boards[0].id, name: 'Zeta' },
      ],
      'by name',
    );
    t.same((await w.as('viewer', 'GET', 'insights')).body.items.find((i: { id: number }) => i.id === insight.id).dashboards.length, 2);
    t.equal((await w.as('analyst', 'DELETE', `insights/${insight.id}`)).status, 204);
    const after = await w.as('viewer', 'GET', `dashboards/${boards[0].id}`);
    t.same(
      after.body.tiles.map((x: { kind: string; position: number }) => [x.kind, x.position]),
      [
        ['text', 0],
        ['insight', 1],
      ],
      'its tile went, the rest closed ranks',
    );
    t.equal(after.body.tiles[1].insight.id, other.id);
    for (const b of boards) t.equal((await w.as('analyst', 'DELETE', `dashboards/${b.id}`)).status, 204);
    t.equal((await w.as('viewer', 'GET', `insights/${other.id}`)).body.dashboards.length, 0, 'the insight stays when its dashboards go');
    t.equal((await w.as('analyst', 'DELETE', `insights/${other.id}`)).status, 204);
  });

  await t.test(`at most ${INSIGHT_LIMITS.per_project} insights per project`, async (t) => {
    const services = server.running.services;
    const insert = services.meta.prepare("INSERT INTO insights (project_id, name, kind, query, created_at, updated_at) VALUES (?, ?, 'lifecycle', '{}', ?, ?)");
    const at = services.clock.now().toISOString();
    services.meta.transaction(() => {
      for (let i = 0; i < INSIGHT_LIMITS.per_project; i++) insert.run(tenant.project.id, `bulk ${i}`, at, at);
    })();
    const refused = await w.as('analyst', 'POST', 'insights', funnel);
    t.equal(refused.status, 422);
    t.match(refused.body.error, { message: /at most 500 saved insights/, details: { limit: 500 } });
    t.equal((await server.request('POST', `/api/v1/projects/${w.stranger.project.id}/insights`, { token: w.tokens.stranger, body: funnel })).status, 201, 'another project has its own limit');
    services.meta.prepare("DELETE FROM insights WHERE name LIKE 'bulk %'").run();
    t.equal((await w.as('analyst', 'POST', 'insights', funnel)).status, 201);
  });
});

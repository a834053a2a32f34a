// Share links over HTTP: admins create, list and revoke them (audited); the public side shows the
// dashboard or insight and answers its tiles without signing in, with one 404 for every dead or
// foreign case; deleting what a link shows revokes it; the token opens nothing else, never reaches
// the logs, and the public side is rate limited per address and per link.

import t from 'tap';
import { world, QUERY_BODIES, type World } from './world.js';
import { grantEntitlements } from '../support/license.js';
import { listAudit } from '../../server/audit/recordAudit.js';
import { deleteProject } from '../../server/accounts/projects.js';
import { redactUrl } from '../../server/ground/logger.js';

const TOKEN = /^pps_[A-Za-z0-9_-]{43}$/;

/** A dashboard with an insight tile and a text tile, and a second insight on no dashboard. */
async function content(w: World) {
  const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Views', kind: 'segmentation', query: QUERY_BODIES.segmentation, description: 'daily' })).body;
  const lone = (await w.as('analyst', 'POST', 'insights', { name: 'Lifecycle', kind: 'lifecycle', query: QUERY_BODIES.lifecycle })).body;
  const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Public KPIs', date_from: '2026-10-05', date_to: '2026-10-20' })).body;
  const tile = (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body;
  const text = (await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { text: 'About these figures' })).body;
  return { insight, lone, board, tile, text };
}

const shared = (w: World, token: string, rest = '', method = rest ? 'POST' : 'GET', headers: Record<string, string> = {}) => w.server.request(method, `/api/v1/shared/${token}${rest}`, { headers });

t.test('share links', async (t) => {
  const w = await world(t);
  const { server, tenant } = w;
  const c = await content(w);

  await t.test('POST /share-links: 401, 422, 403, 404, 201 with the token once', async (t) => {
    t.equal((await server.request('POST', `${w.base}/share-links`, { body: { dashboard_id: c.board.id } })).status, 401);
    const foreignBoard = (await server.request('POST', `/api/v1/projects/${w.stranger.project.id}/dashboards`, { token: w.tokens.stranger, body: { name: 'theirs' } })).body;
    for (const [body, field, message] of [
      [{}, 'dashboard_id', /either a dashboard \(dashboard_id\) or an insight \(insight_id\)/],
      [{ dashboard_id: c.board.id, insight_id: c.insight.id }, 'dashboard_id', /either a dashboard/],
      [{ dashboard_id: c.board.id, expires_at: '2026-11-02T11:59:59Z' }, 'expires_at', /expires_at 2026-11-02T11:59:59Z has passed/],
      [{ dashboard_id: c.board.id, expires_at: 'tomorrow' }, 'expires_at', /must match format "date-time"/],
      [{ dashboard_id: foreignBoard.id }, 'dashboard_id', new RegExp(`dashboard ${foreignBoard.id} is not a dashboard of this project`)],
      [{ insight_id: 987654 }, 'insight_id', /insight 987654 is not a saved insight of this project/],
    ] as Array<[unknown, string, RegExp]>) {
      const res = await w.as('admin', 'POST', 'share-links', body);
      t.equal(res.status, 422, JSON.stringify(body));
      t.equal(res.body.error.details.field, field);
      t.match(res.body.error.message, message);
    }
    t.equal((await w.as('analyst', 'POST', 'share-links', { dashboard_id: c.board.id })).status, 403, 'analysts cannot share');
    t.equal((await w.as('stranger', 'POST', 'share-links', { dashboard_id: c.board.id })).status, 404);
    const made = await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id, expires_at: '2026-11-09T12:00:00+03:00' });
    t.equal(made.status, 201);
    t.match(made.body.token, TOKEN);
    t.same(made.body, {
      id: made.body.id,
      project_id: tenant.project.id,
      target: { kind: 'dashboard', id: c.board.id, name: 'Public KPIs' },
      expires_at: '2026-11-09T09:00:00.000Z',
      created_by: made.body.created_by,
      created_at: '2026-11-02T12:00:00.000Z',
      last_used_at: null,
      token: made.body.token,
      url_path: `/shared/${made.body.token}`,
    });
    const stored = server.running.services.meta.prepare('SELECT token_hash FROM share_links WHERE id = ?').get(made.body.id) as { token_hash: string };
    t.not(stored.token_hash, made.body.token, 'only a hash is kept');
    t.notOk(stored.token_hash.includes(made.body.token.slice(4)));
    t.match(listAudit(server.running.services, { action: 'share_link.create' })[0], {
      org_id: tenant.org.id,
      target: String(made.body.id),
      details: { project_id: tenant.project.id, target: 'dashboard', target_id: c.board.id, expires_at: '2026-11-09T09:00:00.000Z' },
    });
    t.notMatch(JSON.stringify(listAudit(server.running.services)), made.body.token.slice(4), 'the audit never holds the token');

    server.clock.advance(1000);
    const second = (await w.as('owner', 'POST', 'share-links', { insight_id: c.lone.id })).body;
    t.equal(second.expires_at, null);
    t.equal((await server.request('GET', `${w.base}/share-links`)).status, 401);
    t.equal((await w.as('analyst', 'GET', 'share-links')).status, 403);
    t.equal((await w.as('stranger', 'GET', 'share-links')).status, 404);
    const list = (await w.as('admin', 'GET', 'share-links')).body.items;
    t.same(
      list.map((l: { id: number }) => l.id),
      [second.id, made.body.id],
      'newest first',
    );
    t.notOk(JSON.stringify(list).includes('pps_'), 'no tokens in the list');
    t.match(list[0], { target: { kind: 'insight', id: c.lone.id, name: 'Lifecycle' }, created_by: { email: /^owner-/ } });
    for (const l of list) t.equal((await w.as('admin', 'DELETE', `share-links/${l.id}`)).status, 204);
  });

  await t.test('the public side shows the dashboard and answers its tiles as the project would', async (t) => {
    const { token } = (await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id })).body;
    const view = await shared(w, token);
    t.equal(view.status, 200);
    t.same(
      view.body,
      {
        kind: 'dashboard',
        project: { name: tenant.project.name, timezone: 'UTC' },
        dashboard: {
          id: c.board.id,
          project_id: tenant.project.id,
          name: 'Public KPIs',
          description: null,
          date_from: '2026-10-05',
          date_to: '2026-10-20',
          date_range: null,
          filters: null,
          created_at: c.board.created_at,
          updated_at: '2026-11-02T12:00:00.000Z',
          tiles: [
            {
              id: c.tile.id,
              position: 0,
              width: 6,
              height: 3,
              kind: 'insight',
              text: null,
              insight: { id: c.insight.id, name: 'Views', description: 'daily', kind: 'segmentation', query: QUERY_BODIES.segmentation, date_range: null },
            },
            { id: c.text.id, position: 1, width: 6, height: 3, kind: 'text', text: 'About these figures', insight: null },
          ],
        },
      },
      'no authors, no other dashboards',
    );
    const answer = await shared(w, token, `/tiles/${c.tile.id}/result`);
    t.equal(answer.status, 200);
    const signedIn = await w.as('viewer', 'POST', `dashboards/${c.board.id}/tiles/${c.tile.id}/result`);
    t.same(answer.body, signedIn.body, 'the tile’s answer with the dashboard’s range');
    t.equal(answer.body.date_from, '2026-10-05');
    const again = await shared(w, token, `/tiles/${c.tile.id}/result`, 'POST', { 'cache-control': 'no-cache' });
    t.equal(again.headers.get('x-pp-cache'), 'hit', 'the public side cannot force a run');
    const links = (await w.as('admin', 'GET', 'share-links')).body.items;
    t.equal(links[0].last_used_at, '2026-11-02T12:00:01.000Z', 'marked used');

    const insightLink = (await w.as('admin', 'POST', 'share-links', { insight_id: c.insight.id })).body.token;
    const insightView = await shared(w, insightLink);
    t.same(insightView.body, {
      kind: 'insight',
      project: { name: tenant.project.name, timezone: 'UTC' },
      insight: { id: c.insight.id, name: 'Views', description: 'daily', kind: 'segmentation', query: QUERY_BODIES.segmentation, date_range: null },
    });
    const insightAnswer = await shared(w, insightLink, '/result');
    t.equal(insightAnswer.status, 200);
    t.same(insightAnswer.body, (await w.as('viewer', 'POST', 'queries/segmentation', QUERY_BODIES.segmentation)).body);
  });

  await t.test('dead, foreign and malformed cases are all the same 404', async (t) => {
    const dashboardLink = (await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id })).body;
    const insightLink = (await w.as('admin', 'POST', 'share-links', { insight_id: c.lone.id })).body;
    const other = (await w.as('analyst', 'POST', 'dashboards', { name: 'Not shared' })).body;
    const otherTile = (await w.as('analyst', 'POST', `dashboards/${other.id}/tiles`, { insight_id: c.lone.id })).body;
    const expiring = (await w.as('admin', 'POST', 'share-links', { insight_id: c.insight.id, expires_at: '2026-11-02T12:10:00Z' })).body;
    const revoked = (await w.as('admin', 'POST', 'share-links', { insight_id: c.insight.id })).body;
    t.equal((await w.as('admin', 'DELETE', `share-links/${revoked.id}`)).status, 204);
    t.equal((await w.as('admin', 'DELETE', `share-links/${revoked.id}`)).status, 404);
    t.equal((await w.as('analyst', 'DELETE', `share-links/${dashboardLink.id}`)).status, 403);
    t.equal((await w.as('stranger', 'DELETE', `share-links/${dashboardLink.id}`)).status, 404);
    t.equal((await server.request('DELETE', `${w.base}/share-links/${dashboardLink.id}`)).status, 401);
    t.equal((await shared(w, expiring.token)).status, 200, 'live before it expires');
    server.clock.set('2026-11-02T12:10:00Z');

    const unknown = `pps_${'A'.repeat(43)}`;
    const notFound = { error: { code: 'not_found', message: 'share link not found' } };
    for (const [what, res] of [
      ['an unknown token', await shared(w, unknown)],
      ['a malformed token', await shared(w, 'garbage')],
      ['a token without its prefix', await shared(w, dashboardLink.token.slice(4))],
      ['a revoked link', await shared(w, revoked.token)],
      ['a revoked link’s answer', await shared(w, revoked.token, '/result')],
      ['an expired link', await shared(w, expiring.token)],
      ['an expired link’s answer', await shared(w, expiring.token, '/result')],
      ['a tile of another dashboard', await shared(w, dashboardLink.token, `/tiles/${otherTile.id}/result`)],
      ['a missing tile', await shared(w, dashboardLink.token, '/tiles/987654/result')],
      ['a text tile', await shared(w, dashboardLink.token, `/tiles/${c.text.id}/result`)],
      ['a dashboard link asked for an insight answer', await shared(w, dashboardLink.token, '/result')],
      ['an insight link asked for a tile', await shared(w, insightLink.token, `/tiles/${otherTile.id}/result`)],
    ] as const) {
      t.equal(res.status, 404, what);
      t.match(res.body, notFound, what);
    }
    t.equal((await shared(w, dashboardLink.token)).status, 200, 'the live link still works');

    t.equal((await w.as('analyst', 'DELETE', `dashboards/${c.board.id}`)).status, 204);
    t.equal((await shared(w, dashboardLink.token)).status, 404, 'deleting the dashboard revoked its link');
    t.equal((await shared(w, insightLink.token)).status, 200);
    t.equal((await w.as('analyst', 'DELETE', `insights/${c.lone.id}`)).status, 204);
    t.equal((await shared(w, insightLink.token)).status, 404, 'deleting the insight revoked its link');
    const left = (await w.as('admin', 'GET', 'share-links')).body.items;
    const targets = left.map((l: { target: { id: number; kind: string } }) => `${l.target.kind} ${l.target.id}`);
    t.notOk(targets.includes(`dashboard ${c.board.id}`) || targets.includes(`insight ${c.lone.id}`), 'neither is listed any more');
    t.ok(
      left.some((l: { id: number }) => l.id === expiring.id),
      'an expired link is listed until revoked',
    );
    const audit = listAudit(server.running.services, { action: 'share_link.revoke' });
    t.match(audit[0], { target: String(revoked.id), details: { target: 'insight', target_id: c.insight.id } });
  });
});

t.test('a share token is no credential anywhere else', async (t) => {
  const w = await world(t);
  const c = await content(w);
  const { token } = (await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id })).body;
  t.equal((await shared(w, token)).status, 200);
  const routes: Array<[string, string, unknown?]> = [
    ['GET', `${w.base}/dashboards`],
    ['GET', `${w.base}/dashboards/${c.board.id}`],
    ['POST', `${w.base}/dashboards/${c.board.id}/tiles/${c.tile.id}/result`],
    ['GET', `${w.base}/insights`],
    ['POST', `${w.base}/queries/segmentation`, QUERY_BODIES.segmentation],
    ['GET', `${w.base}/share-links`],
    ['GET', `${w.base}/events`],
    ['GET', '/api/v1/me'],
    ['GET', '/api/v1/projects'],
  ];
  for (const [method, path, body] of routes) {
    const without = await w.server.request(method, path, { body });
    t.equal(without.status, 401, `${method} ${path} without credentials`);
    const tries = [
      ['as bearer', await w.server.request(method, path, { body, token })],
      ['as a cookie', await w.server.request(method, path, { body, headers: { cookie: `pp_rt=${token}; token=${token}; pp_share=${token}` } })],
      ['in the query', await w.server.request(method, `${path}?token=${token}&access_token=${token}&share=${token}`, { body })],
    ] as const;
    for (const [how, res] of tries) {
      t.equal(res.status, 401, `${method} ${path} ${how}`);
      t.same(res.body, without.body, `${method} ${path} ${how}: the same answer as without`);
    }
  }
  const bootstrap = await w.server.request('POST', '/api/v1/auth/bootstrap', { headers: { cookie: `pp_rt=${token}` } });
  t.equal(bootstrap.status, 401, 'nor a refresh cookie');
});

t.test('the token never reaches the logs', async (t) => {
  t.equal(redactUrl('/api/v1/shared/pps_abc/tiles/3/result'), '/api/v1/shared/[redacted]/tiles/3/result');
  t.equal(redactUrl('/api/v1/shared/pps_abc'), '/api/v1/shared/[redacted]');
  t.equal(redactUrl('/shared/pps_abc?x=1'), '/shared/[redacted]?x=1');
  t.equal(redactUrl('/api/v1/projects/1/shared-things'), '/api/v1/projects/1/shared-things', 'only a /shared/ segment');
  const w = await world(t);
  const c = await content(w);
  const { token } = (await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id })).body;
  const referer = `https://pp.example.com/shared/${token}`;
  t.equal((await shared(w, token, '', 'GET', { referer })).status, 200);
  t.equal((await shared(w, token, `/tiles/${c.tile.id}/result`, 'POST', { referer })).status, 200);
  t.equal((await shared(w, `${token}x`, '', 'GET', { referer })).status, 404);
  const lines = w.server.logs.filter((l) => l.msg === 'request' && String((l.req as { url: string }).url).startsWith('/api/v1/shared/'));
  t.equal(lines.length, 3, 'the requests were logged');
  t.same(
    lines.map((l) => (l.req as { url: string }).url),
    ['/api/v1/shared/[redacted]', `/api/v1/shared/[redacted]/tiles/${c.tile.id}/result`, '/api/v1/shared/[redacted]'],
  );
  t.equal((lines[0]!.req as { headers: Record<string, string> }).headers.referer, 'https://pp.example.com/shared/[redacted]');
  t.notOk(JSON.stringify(w.server.logs).includes(token.slice(4)), 'the token is nowhere in the logs');
});

t.test('the public side is rate limited per address and per link', async (t) => {
  const w = await world(t, { settings: { 'rate_limit.shared_ip_per_minute': 6, 'rate_limit.shared_token_per_minute': 3 } });
  const c = await content(w);
  const one = (await w.as('admin', 'POST', 'share-links', { dashboard_id: c.board.id })).body.token;
  const two = (await w.as('admin', 'POST', 'share-links', { insight_id: c.insight.id })).body.token;
  for (let i = 0; i < 3; i++) t.equal((await shared(w, one)).status, 200);
  const limited = await shared(w, one, `/tiles/${c.tile.id}/result`);
  t.equal(limited.status, 429, 'the link’s budget is spent');
  t.equal(limited.body.error.code, 'rate_limited');
  t.equal(limited.headers.get('retry-after'), '60');
  t.equal((await shared(w, two)).status, 200, 'another link has its own');
  t.equal((await shared(w, `pps_${'B'.repeat(43)}`)).status, 404, 'guesses spend the address’s budget');
  const byAddress = await shared(w, two);
  t.equal(byAddress.status, 429, 'the address’s budget is spent');
  t.ok(Number(byAddress.headers.get('retry-after')) >= 1);
  t.equal((await w.as('viewer', 'GET', 'dashboards')).status, 200, 'signed-in routes have budgets of their own');
  w.server.clock.advance(60_000);
  t.equal((await shared(w, one)).status, 200, 'a minute later');
});

t.test('the public side answers with the project’s entitlements at the time of the call, and not for a deleted project', async (t) => {
  const w = await world(t);
  const sessions = { ...QUERY_BODIES.paths, mode: 'session' };
  const insight = (await w.as('analyst', 'POST', 'insights', { name: 'Sessions', kind: 'paths', query: sessions })).body;
  const { token } = (await w.as('admin', 'POST', 'share-links', { insight_id: insight.id })).body;
  const refused = await shared(w, token, '/result');
  t.equal(refused.status, 403);
  t.match(refused.body.error, { code: 'entitlement_required', details: { entitlement: 'actor_drilldown' } });
  await grantEntitlements(w.server, ['actor_drilldown', 'saved_segments']);
  const allowed = await shared(w, token, '/result');
  t.equal(allowed.status, 200);
  t.same(allowed.body, (await w.as('viewer', 'POST', 'queries/paths', sessions)).body);
  deleteProject(w.server.running.services.meta, w.tenant.project.id, w.server.clock.now());
  t.equal((await shared(w, token)).status, 404, 'a deleted project shares nothing');
  t.equal((await shared(w, token, '/result')).status, 404);
});

t.test('a link shows figures, never actors: a funnel loses its drop-offs, an actor list is refused', async (t) => {
  const w = await world(t);
  await grantEntitlements(w.server, ['actor_drilldown']);
  const funnel = { ...QUERY_BODIES.funnel, dropped_at_step: 1 };
  const dropping = (await w.as('analyst', 'POST', 'insights', { name: 'Who left', kind: 'funnel', query: funnel })).body;
  const listing = (await w.as('analyst', 'POST', 'insights', { name: 'Cohort', kind: 'retention/actors', query: QUERY_BODIES['retention/actors'] })).body;
  const board = (await w.as('analyst', 'POST', 'dashboards', { name: 'Mixed' })).body;
  const tiles = [];
  for (const insight of [dropping, listing]) tiles.push((await w.as('analyst', 'POST', `dashboards/${board.id}/tiles`, { insight_id: insight.id })).body);
  const inside = await w.as('viewer', 'POST', `insights/${dropping.id}/result`, {});
  t.ok(inside.body.dropped.actors.length > 0, 'members see who dropped off');

  const boardLink = (await w.as('admin', 'POST', 'share-links', { dashboard_id: board.id })).body.token;
  const outside = await shared(w, boardLink, `/tiles/${tiles[0].id}/result`);
  t.equal(outside.status, 200);
  t.notOk('dropped' in outside.body, 'the drop-offs are left out');
  const { dropped: _dropped, ...figures } = inside.body;
  t.same(outside.body, figures, 'the figures are the same');
  t.notMatch(outside.text, inside.body.dropped.actors[0].actor_id);
  const list = await shared(w, boardLink, `/tiles/${tiles[1].id}/result`);
  t.equal(list.status, 403);
  t.match(list.body.error, { code: 'forbidden', message: /does not show lists of actors/ });

  const insightLink = (await w.as('admin', 'POST', 'share-links', { insight_id: listing.id })).body.token;
  t.equal((await shared(w, insightLink, '/result')).status, 403);
});

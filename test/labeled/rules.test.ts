// Labeled-event rules over HTTP: who may read and write them, the body's checks, every state
// transition and its 409s, derivation over history and at ingest, what queries, catalogs and the
// events list then show, the preview window, the picker token and captures, and the purge of
// form events taking the labels derived from them along.

import t from 'tap';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { seedEvents, type SeedEvent } from '../support/seedEvents.js';
import { eventually } from '../support/eventually.js';
import { listAudit } from '../../server/audit/recordAudit.js';

const rulesPath = (projectId: number) => `/api/v1/projects/${projectId}/labeled-events`;

const buyChain = [
  { tag: 'span', nth_child: 1, text: 'Buy now' },
  { tag: 'button', id: 'buy', classes: ['btn', 'primary'], nth_child: 2, attributes: { 'data-pp-name': 'buy', type: 'submit' } },
  { tag: 'section', classes: ['pricing'], nth_child: 3 },
];
const navChain = [
  { tag: 'a', nth_child: 1, text: 'Docs', attributes: { href: '/docs' } },
  { tag: 'nav', nth_child: 1 },
];

/** Clicks on the pricing page and elsewhere, a form submit and page views, over the last weeks. */
function history(): SeedEvent[] {
  return [
    { event: 'pp.click', ts: '2026-10-30T10:00:00Z', anonymous_id: 'a', url: 'https://shop.example/pricing?x=1', elements: buyChain },
    { event: 'pp.click', ts: '2026-10-31T10:00:00Z', anonymous_id: 'b', url: 'https://shop.example/pricing/', elements: buyChain },
    { event: 'pp.click', ts: '2026-09-01T10:00:00Z', anonymous_id: 'c', url: 'https://shop.example/pricing', elements: buyChain },
    { event: 'pp.click', ts: '2026-10-31T11:00:00Z', anonymous_id: 'a', url: 'https://shop.example/', elements: navChain },
    {
      event: 'pp.form_submit',
      ts: '2026-10-31T12:00:00Z',
      anonymous_id: 'a',
      url: 'https://shop.example/signup',
      props: { form: 'form#signup' },
      elements: [{ tag: 'form', id: 'signup', nth_child: 1 }],
    },
    { event: 'pp.page_view', ts: '2026-10-31T09:00:00Z', anonymous_id: 'a', url: 'https://shop.example/pricing' },
    { event: 'pp.page_view', ts: '2026-10-31T09:30:00Z', anonymous_id: 'b', url: 'https://shop.example/blog/one' },
  ];
}

/** The rule once its latest job has finished. */
function synced(server: TestServer, projectId: number, ruleId: number, token: string): Promise<any> {
  return eventually(
    `rule ${ruleId} to be synced`,
    async () => (await server.request('GET', `${rulesPath(projectId)}/${ruleId}`, { token })).body,
    (rule) => rule.materialization !== null && ['succeeded', 'failed'].includes(rule.materialization.state),
  );
}

/** (event, source uuid) of the project's derived events, sorted. */
async function derived(server: TestServer, projectId: number): Promise<Array<{ rule_id: number; event: string; source: string; source_uuid: string }>> {
  return readTable(server, `SELECT rule_id, event, source, source_uuid::VARCHAR AS source_uuid FROM events WHERE project_id = $1 AND rule_id IS NOT NULL ORDER BY event, source_uuid`, [
    projectId,
  ]) as Promise<any>;
}

t.test('labeled-event rules over HTTP', async (t) => {
  const server = await startTestServer(t);
  const services = server.running.services;
  const { owner, org, project } = await createTenant(server);
  const stranger = await createTenant(server);
  const tokens = {
    owner: await accessTokenFor(server, owner, org),
    analyst: await accessTokenFor(server, await addMember(server, org, 'analyst'), org),
    viewer: await accessTokenFor(server, await addMember(server, org, 'viewer'), org),
    stranger: await accessTokenFor(server, stranger.owner, stranger.org),
  };
  const base = rulesPath(project.id);
  const seeded = await seedEvents(server, project.id, history());
  const buyBody = { base_event: 'pp.click', selector: 'button#buy', url_pattern: 'https://shop.example/pricing', event_name: 'start_trial', display_name: 'Start trial' };

  await t.test('401, 403 and 404 before anything else', async (t) => {
    t.equal((await server.request('GET', base)).status, 401);
    t.equal((await server.request('POST', base, { body: buyBody })).status, 401);
    t.equal((await server.request('POST', base, { token: tokens.viewer, body: buyBody })).status, 403);
    t.equal((await server.request('POST', `${base}/preview`, { token: tokens.viewer, body: buyBody })).status, 403);
    t.equal((await server.request('POST', `${base}/picker-token`, { token: tokens.viewer })).status, 403);
    t.equal((await server.request('GET', base, { token: tokens.stranger })).status, 404);
    t.equal((await server.request('POST', base, { token: tokens.stranger, body: buyBody })).status, 404);
    t.same((await server.request('GET', base, { token: tokens.viewer })).body, { items: [] });
  });

  await t.test('400 for a rule id that is not a positive integer, 404 for an unknown one', async (t) => {
    for (const id of ['abc', '0', '-1', '1.5']) {
      const res = await server.request('GET', `${base}/${id}`, { token: tokens.viewer });
      t.equal(res.status, 400, id);
      t.equal(res.body.error.code, 'validation_failed');
      t.equal((await server.request('POST', `${base}/${id}/disable`, { token: tokens.analyst })).status, 400, `disable ${id}`);
    }
    t.equal((await server.request('GET', `${base}/999999`, { token: tokens.viewer })).status, 404);
    t.equal((await server.request('DELETE', `${base}/999999`, { token: tokens.analyst })).status, 404);
  });

  await t.test('422 names what is wrong in a body', async (t) => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ base_event: 'pp.click' }, 'event_name', /required/],
      [{ base_event: 'pp.click', event_name: '  ' }, 'event_name', /event_name is required/],
      [{ base_event: 'pp.click', event_name: 'x', display_name: 'a\u0001b' }, 'display_name', /control characters/],
      [{ base_event: 'pp.scroll_depth', event_name: 'x' }, 'base_event', /./],
      [{ base_event: 'pp.click', event_name: 'pp.mine' }, 'event_name', /pp\./],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'div + button' }, 'selector', /adjacent sibling combinator \+ is not supported/],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'a:hover' }, 'selector', /:hover is not supported/],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'a, b' }, 'selector', /selector lists/],
      [{ base_event: 'pp.click', event_name: 'x', selector: '[href^="/x"]' }, 'selector', /\^= is not supported/],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'li:nth-child(2n+1)' }, 'selector', /positive integer/],
      [
        { base_event: 'pp.click', event_name: 'x', selector: 'a[href=/trial]' },
        'selector',
        /a bare attribute value holds only ASCII letters, digits, _ and - and characters outside ASCII; quote any other value/,
      ],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'a[href=trial/2]' }, 'selector', /a bare attribute value holds only/],
      [{ base_event: 'pp.page_view', event_name: 'x', selector: 'a' }, 'selector', /page view has no element/],
      [{ base_event: 'pp.page_view', event_name: 'x', attributes: [{ name: 'href', op: 'exists' }] }, 'attributes', /page view has no element/],
      [{ base_event: 'pp.click', event_name: 'x', attributes: [{ name: 'onclick', op: 'exists' }] }, 'attributes[0].name', /does not capture onclick/],
      [{ base_event: 'pp.click', event_name: 'x', attributes: [{ name: 'href', op: 'contains' }] }, 'attributes[0].value', /needs a value/],
      [{ base_event: 'pp.click', event_name: 'x', selector: 'a'.repeat(501) }, 'selector', /./],
    ];
    for (const [body, field, message] of cases) {
      const res = await server.request('POST', base, { token: tokens.analyst, body });
      t.equal(res.status, 422, JSON.stringify(body).slice(0, 80));
      t.equal(res.body.error.code, 'validation_failed');
      t.equal(res.body.error.details.field?.replace(/^\//, '').replace(/\//g, '.'), field, JSON.stringify(res.body.error));
      t.match(res.body.error.message + JSON.stringify(res.body.error.details), message);
    }
    t.same((await server.request('GET', base, { token: tokens.viewer })).body.items, [], 'nothing was created');
  });

  let buy: any;
  await t.test('create: 201 active, derived over all history, then shown by queries, catalogs and the events list', async (t) => {
    const res = await server.request('POST', base, { token: tokens.analyst, body: buyBody });
    t.equal(res.status, 201);
    t.match(res.body, {
      base_event: 'pp.click',
      selector: 'button#buy',
      url_pattern: 'https://shop.example/pricing',
      match_text: null,
      attributes: [],
      event_name: 'start_trial',
      display_name: 'Start trial',
      description: null,
      state: 'active',
    });
    buy = await synced(server, project.id, res.body.id, tokens.viewer);
    t.equal(buy.materialization.state, 'succeeded');
    // The three clicks on the buy button of the pricing page (a query and a trailing slash normalized away), all time.
    t.equal(buy.materialization.derived_events, 3);
    const rows = await derived(server, project.id);
    const sources = seeded
      .filter((e) => e.event === 'pp.click' && e.url!.includes('pricing'))
      .map((e) => e.uuid)
      .sort();
    t.same(
      rows.map((r) => r.source_uuid),
      sources,
    );
    t.ok(rows.every((r) => r.event === 'start_trial' && r.source === 'system' && r.rule_id === buy.id));

    const seg = await server.request('POST', `/api/v1/projects/${project.id}/queries/segmentation`, {
      token: tokens.viewer,
      body: { metric: 'events', event: 'start_trial', interval: 'day', date_from: '2026-10-01', date_to: '2026-11-01' },
    });
    t.equal(seg.status, 200, JSON.stringify(seg.body).slice(0, 300));
    const total = (seg.body.series[0].points as Array<{ value: number }>).reduce((n, p) => n + p.value, 0);
    t.equal(total, 2, 'two of them in October');

    const catalog = await server.request('GET', `/api/v1/projects/${project.id}/catalog/events`, { token: tokens.viewer });
    t.equal(catalog.status, 200);
    t.match(JSON.stringify(catalog.body), /start_trial/);
    const list = await server.request('GET', `/api/v1/projects/${project.id}/events?event=start_trial`, { token: tokens.viewer });
    t.equal(list.status, 200);
    t.equal(list.body.items.filter((e: any) => e.event === 'start_trial').length, 3);

    t.equal((await server.request('POST', base, { token: tokens.owner, body: { ...buyBody, selector: 'a' } })).status, 409, 'the event name is taken');
    const audit = listAudit(services, { orgId: org.id }).find((a: any) => a.action === 'labeled_event.create');
    t.ok(audit, 'creation is audited');
  });

  await t.test('events stored later are derived as they arrive', async (t) => {
    const key = createIngestKey(server, project);
    const uuid = '0b6f2a52-8e2a-4e7c-9d38-5b0a3f2f0a01';
    const other = '0b6f2a52-8e2a-4e7c-9d38-5b0a3f2f0a02';
    const res = await ingestEvents(server, key, [
      { event: 'pp.click', uuid, anonymous_id: 'd', url: 'https://shop.example/pricing#plans', elements: buyChain },
      { event: 'pp.click', uuid: other, anonymous_id: 'd', url: 'https://shop.example/', elements: buyChain },
    ]);
    t.equal(res.status, 202);
    const rows = await eventually(
      'the click to be labeled',
      () => derived(server, project.id),
      (r) => r.length === 4,
    );
    t.ok(
      rows.some((r) => r.source_uuid === uuid),
      'the click on the pricing page is labeled',
    );
    t.notOk(
      rows.some((r) => r.source_uuid === other),
      'the one on the home page is not',
    );
  });

  await t.test('preview: matching raw events of the last 30 days, nothing stored', async (t) => {
    const before = await readTable(server, 'SELECT count(*) AS n FROM events');
    const res = await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.click', selector: 'button#buy' } });
    t.equal(res.status, 200);
    // Four clicks on the button; the one of September is older than 30 days.
    t.same(res.body, { count: 4, from: '2026-10-03T12:00:00.000Z', to: '2026-11-02T12:00:00.000Z' });
    const text = await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.click', match_text: '  BUY   now ' } });
    t.equal(text.body.count, 4, 'text is compared case-insensitively, whitespace collapsed');
    const pages = await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.page_view', url_pattern: '/blog/*' } });
    t.equal(pages.body.count, 1);
    const none = await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.click', selector: 'nav > button' } });
    t.equal(none.body.count, 0);
    t.equal((await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.click', selector: 'a ~ b' } })).status, 422);
    t.same(await readTable(server, 'SELECT count(*) AS n FROM events'), before);
  });

  await t.test('state transitions, with a 409 naming the state for every other source state', async (t) => {
    const one = `${base}/${buy.id}`;
    t.equal((await server.request('POST', `${one}/enable`, { token: tokens.analyst })).status, 409);
    t.equal((await server.request('POST', `${one}/disable`, { token: tokens.viewer })).status, 403);
    t.equal((await server.request('POST', `${one}/disable`, { token: tokens.analyst })).status, 204);
    let rule = await synced(server, project.id, buy.id, tokens.viewer);
    t.equal(rule.state, 'disabled');
    t.equal(rule.materialization.derived_events, 0);
    t.same(await derived(server, project.id), [], 'teardown deleted the derived events');
    const again = await server.request('POST', `${one}/disable`, { token: tokens.analyst });
    t.equal(again.status, 409);
    t.equal(again.body.error.details.state, 'disabled');
    t.match(again.body.error.message, /disabled/);

    t.equal((await server.request('POST', `${one}/enable`, { token: tokens.analyst })).status, 204);
    rule = await synced(server, project.id, buy.id, tokens.viewer);
    t.equal(rule.state, 'active');
    t.equal(rule.materialization.derived_events, 4, 'derived again, the ingested click included');

    // A new click while the rule was disabled is derived by enabling; deleting now holds the writer so the state can be seen.
    let release!: () => void;
    const held = services.events.useWriter(() => new Promise<void>((resolve) => (release = resolve)));
    t.equal((await server.request('DELETE', one, { token: tokens.analyst })).status, 204);
    const deleting = (await server.request('GET', one, { token: tokens.viewer })).body;
    t.equal(deleting.state, 'deleting');
    for (const [method, path] of [
      ['POST', `${one}/disable`],
      ['POST', `${one}/enable`],
      ['DELETE', one],
    ] as const) {
      const res = await server.request(method, path, { token: tokens.analyst });
      t.equal(res.status, 409, `${method} ${path}`);
      t.equal(res.body.error.details.state, 'deleting');
    }
    const patch = await server.request('PATCH', one, { token: tokens.analyst, body: buyBody });
    t.equal(patch.status, 409);
    const taken = await server.request('POST', base, { token: tokens.analyst, body: buyBody });
    t.equal(taken.status, 409, 'the name stays taken while deleting');
    t.equal(taken.body.error.details.state, 'deleting');
    release();
    await held;
    await eventually(
      'the rule to be gone',
      async () => (await server.request('GET', one, { token: tokens.viewer })).status,
      (s) => s === 404,
    );
    t.same(await derived(server, project.id), []);
    t.equal((await server.request('POST', base, { token: tokens.analyst, body: buyBody })).status, 201, 'the name is free again');
  });

  await t.test('PATCH replaces every field; only changed matching derives again', async (t) => {
    const list = (await server.request('GET', base, { token: tokens.viewer })).body.items;
    const rule = await synced(server, project.id, list[0].id, tokens.viewer);
    const jobs = () => services.meta.prepare('SELECT count(*) AS n FROM labeled_event_jobs WHERE rule_id = ?').get(rule.id) as { n: number };
    const before = jobs().n;
    const renamed = await server.request('PATCH', `${base}/${rule.id}`, { token: tokens.analyst, body: { ...buyBody, display_name: 'Trial', description: 'pricing CTA' } });
    t.equal(renamed.status, 200);
    t.match(renamed.body, { display_name: 'Trial', description: 'pricing CTA', state: 'active' });
    t.equal(jobs().n, before, 'names and texts alone queue no job');
    const cleared = await server.request('PATCH', `${base}/${rule.id}`, { token: tokens.analyst, body: { base_event: 'pp.click', event_name: 'start_trial', selector: '#buy span' } });
    t.equal(cleared.status, 200);
    t.match(cleared.body, { selector: '#buy span', url_pattern: null, display_name: null, description: null });
    t.equal(jobs().n, before + 1);
    const after = await synced(server, project.id, rule.id, tokens.viewer);
    // `#buy span`: the span under the button, on every page: five clicks.
    t.equal(after.materialization.derived_events, 5);
    const labelsOf = async (name: string) => (await derived(server, project.id)).filter((r) => r.rule_id === rule.id && r.event === name).map((r) => r.source_uuid);
    const spans = await labelsOf('start_trial');
    t.equal(spans.length, 5, 'the clicks the old selector matched and the new one does not are no longer labeled');
    for (const name of ['trial_started', 'start_trial']) {
      t.equal((await server.request('PATCH', `${base}/${rule.id}`, { token: tokens.analyst, body: { base_event: 'pp.click', event_name: name, selector: '#buy span' } })).status, 200);
      t.equal((await synced(server, project.id, rule.id, tokens.viewer)).materialization.derived_events, 5);
      t.same(await labelsOf(name), spans, `renamed to ${name}: the same sources, under the new name only`);
    }
    const other = await server.request('POST', base, { token: tokens.analyst, body: { base_event: 'pp.click', event_name: 'docs_click', attributes: [{ name: 'href', op: 'eq', value: '/docs' }] } });
    t.equal(other.status, 201);
    t.equal((await server.request('PATCH', `${base}/${rule.id}`, { token: tokens.analyst, body: { base_event: 'pp.click', event_name: 'docs_click' } })).status, 409);
    const names = (await server.request('GET', base, { token: tokens.viewer })).body.items.map((r: any) => r.event_name);
    t.same(names, ['docs_click', 'start_trial'], 'ordered by event name');
  });

  await t.test('a forms purge deletes the labels derived from form submits', async (t) => {
    const res = await server.request('POST', base, { token: tokens.analyst, body: { base_event: 'pp.form_submit', selector: 'form#signup', event_name: 'signed_up' } });
    const rule = await synced(server, project.id, res.body.id, tokens.viewer);
    t.equal(rule.materialization.derived_events, 1);
    const purge = await server.request('POST', `/api/v1/projects/${project.id}/behavior/forms/purge`, { token: tokens.owner, headers: { 'x-confirm-purge': 'true' } });
    t.equal(purge.status, 202);
    await eventually(
      'the purge',
      async () => (await server.request('GET', `/api/v1/projects/${project.id}/behavior/forms/purge/${purge.body.id}`, { token: tokens.owner })).body.state,
      (s) => s === 'succeeded',
    );
    const left = await derived(server, project.id);
    t.notOk(left.some((r) => r.event === 'signed_up'));
    t.ok(
      left.some((r) => r.event === 'start_trial'),
      'labels of clicks stay',
    );
  });

  await t.test('picker: a signed token, captures polled under it', async (t) => {
    const issued = await server.request('POST', `${base}/picker-token`, { token: tokens.analyst });
    t.equal(issued.status, 200);
    t.match(issued.body, { token: /^[\w-]+\.[\w-]+$/, nonce: /^[\w-]{16,}$/, expires_at: '2026-11-02T12:10:00.000Z' });
    const poll = (token: string, as = tokens.analyst) => server.request('GET', `${base}/picker/captures?token=${encodeURIComponent(token)}`, { token: as });
    t.same((await poll(issued.body.token)).body, { ready: false, expires_at: issued.body.expires_at });
    t.equal((await poll(issued.body.token, tokens.viewer)).status, 403);

    const browser = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
    const capture = {
      picker_token: issued.body.token,
      nonce: issued.body.nonce,
      url: 'https://shop.example/pricing/?ref=ad',
      selector: 'section.pricing > button#buy',
      element: { tag: 'button', id: 'buy', classes: ['btn', 'primary'], nth_child: 2, text: 'Buy now' },
      chain: [{ ...buyChain[1], text: 'Buy now' }, buyChain[2]],
    };
    t.equal((await server.request('POST', '/v1/capture', { token: browser.value, body: capture, headers: { origin: 'https://shop.example' } })).status, 202);
    const ready = await poll(issued.body.token);
    t.same(ready.body, {
      ready: true,
      expires_at: issued.body.expires_at,
      captured_at: '2026-11-02T12:00:00.000Z',
      url: capture.url,
      url_pattern: 'https://shop.example/pricing',
      selector: 'button[data-pp-name=buy]',
      text: 'Buy now',
      element: { tag: 'button', id: 'buy', classes: ['btn', 'primary'], attributes: { 'data-pp-name': 'buy', type: 'submit' } },
    });
    const preview = await server.request('POST', `${base}/preview`, { token: tokens.analyst, body: { base_event: 'pp.click', selector: ready.body.selector, url_pattern: ready.body.url_pattern } });
    t.equal(preview.body.count, 3, 'the suggested selector and page match the button’s clicks');

    const forged = `${issued.body.token.split('.')[0]}.${'A'.repeat(43)}`;
    t.equal((await poll(forged)).status, 404);
    t.equal((await poll('garbage')).status, 404);
    const otherProject = await server.request('POST', `${rulesPath(stranger.project.id)}/picker-token`, { token: tokens.stranger });
    t.equal((await poll(otherProject.body.token)).status, 404, 'a token of another project');
    server.clock.set(new Date('2026-11-02T12:10:00Z'));
    t.equal((await poll(issued.body.token)).status, 404, 'expired after ten minutes');
    server.clock.set(new Date('2026-11-02T12:00:00Z'));
    const logged = JSON.stringify(server.logs);
    t.notOk(logged.includes(issued.body.token.split('.')[1]), 'the token never reaches the logs');
  });

  await t.test('a job keeps the labels that still match: broadening a rule deletes nothing', async (t) => {
    const res = await server.request('POST', base, { token: tokens.analyst, body: { ...buyBody, event_name: 'buy_pricing' } });
    t.equal(res.status, 201);
    await synced(server, project.id, res.body.id, tokens.viewer);
    const key = createIngestKey(server, project);
    const uuid = '0b6f2a52-8e2a-4e7c-9d38-5b0a3f2f0a03';
    t.equal((await ingestEvents(server, key, [{ event: 'pp.click', uuid, anonymous_id: 'e', url: 'https://shop.example/pricing', elements: buyChain }])).status, 202);
    const labels = () => readTable(server, 'SELECT source_uuid::VARCHAR AS s FROM events WHERE rule_id = $1 ORDER BY s', [res.body.id]) as Promise<Array<{ s: string }>>;
    await eventually('the click to be labeled as it arrives', labels, (rows) => rows.some((r) => r.s === uuid));
    const before = await labels();
    const broadened = await server.request('PATCH', `${base}/${res.body.id}`, { token: tokens.analyst, body: { base_event: 'pp.click', selector: 'button#buy', event_name: 'buy_pricing' } });
    t.equal(broadened.status, 200);
    const rule = await synced(server, project.id, res.body.id, tokens.viewer);
    const job = services.meta.prepare('SELECT j.result FROM jobs j JOIN labeled_event_jobs l ON l.job_id = j.id WHERE l.rule_id = ? ORDER BY j.id DESC LIMIT 1').get(res.body.id) as { result: string };
    t.match(JSON.parse(job.result), { deleted_events: 0 }, 'the labels already stored stay');
    const after = await labels();
    t.ok(
      before.every((r) => after.some((a) => a.s === r.s)),
      'every earlier label is kept',
    );
    const clicks = (await readTable(server, "SELECT count(*) AS n FROM events WHERE event = 'pp.click' AND rule_id IS NULL AND list_contains(el_ids, 'buy')", [])) as Array<{ n: number }>;
    t.equal(after.length, Number(clicks[0]!.n), 'and every click on the button, on any page, is labeled');
    t.equal(rule.materialization.derived_events, after.length);
  });
});

t.test('the picker turned off answers 501', async (t) => {
  const server = await startTestServer(t, { settings: { picker_enabled: false } });
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const issued = await server.request('POST', `${rulesPath(project.id)}/picker-token`, { token });
  t.equal(issued.status, 501);
  t.equal(issued.body.error.code, 'not_implemented');
  t.equal((await server.request('GET', `${rulesPath(project.id)}/picker/captures?token=x`, { token })).status, 501);
});

t.test('a clock stepped back or forward by a day: no picker token outlives its ten minutes from now', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const DAY = 24 * 60 * 60_000;
  const issue = async () => (await server.request('POST', `${rulesPath(project.id)}/picker-token`, { token: await accessTokenFor(server, owner, org) })).body.token as string;
  const poll = async (token: string) =>
    (await server.request('GET', `${rulesPath(project.id)}/picker/captures?token=${encodeURIComponent(token)}`, { token: await accessTokenFor(server, owner, org) })).status;
  const before = await issue();
  server.clock.step(-DAY);
  t.equal(await poll(before), 404, 'it would otherwise live for the step plus ten minutes');
  const after = await issue();
  t.equal(await poll(after), 200, 'a token issued after the step works');
  server.clock.step(DAY);
  t.equal(await poll(after), 404, 'a day on, past its ten minutes');
});

// The element columns rules match are computed twice: in TypeScript as events are stored
// (server/ingest/elementColumns.ts) and by the pp_el_* macros of migration 0028, which rule jobs
// and previews use for events stored before it (and the tests' seeded events). On random chains,
// odd shapes included, both give the same columns; and events without them are still matched.

import t from 'tap';
import fc from 'fast-check';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { readTable } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';

const word = fc.constantFrom('a', 'btn', 'Buy', 'data', 'x\u001ey', 'q"t', 'é', '', ' ');
const odd = fc.oneof(word, fc.integer({ min: -3, max: 3 }), fc.constant(null), fc.boolean(), fc.constant(2_147_483_648));
const element = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        tag: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('div', 'BUTTON', 'a', 'my-el') }, { weight: 1, arbitrary: odd }),
        id: fc.oneof(word, odd),
        classes: fc.oneof({ weight: 4, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: odd }), { maxLength: 4 }) }, { weight: 1, arbitrary: odd }),
        nth_child: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 9 }) }, { weight: 1, arbitrary: odd }),
        text: fc.oneof(word, odd),
        attributes: fc.oneof(
          {
            weight: 4,
            arbitrary: fc.dictionary(fc.constantFrom('href', 'data-pp-name', 'aria-label', 'Bad', '$x', 'a.b', '1a', 'x y'), fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: odd }), {
              maxKeys: 4,
            }),
          },
          { weight: 1, arbitrary: odd },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: odd },
);

t.test('the macros and the ingest code agree on every chain', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const db = server.running.services.events;
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('pp.click', 'pp.form_submit'), fc.array(element, { minLength: 0, maxLength: 6 }), async (event, chain) => {
      n += 1;
      const elements = JSON.stringify(chain);
      await db.write(
        `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, elements)
         VALUES ($1, uuid(), now(), now(), $2, 'a', 'browser', $3)`,
        [project.id, event, elements],
      );
      const [row] = await readTable(
        server,
        `SELECT to_json(pp_el_tags(elements))::VARCHAR AS el_tags, to_json(pp_el_ids(elements))::VARCHAR AS el_ids, to_json(pp_el_classes(elements))::VARCHAR AS el_classes,
            to_json(pp_el_nth(elements))::VARCHAR AS el_nth, to_json(pp_el_attrs(elements))::VARCHAR AS el_attrs, pp_el_text(elements) AS el_text
           FROM events WHERE project_id = $1 ORDER BY rowid DESC LIMIT 1`,
        [project.id],
      );
      const expected = elementColumns(event, JSON.parse(elements));
      const sql = {
        el_tags: JSON.parse(row!.el_tags),
        el_ids: JSON.parse(row!.el_ids),
        el_classes: JSON.parse(row!.el_classes),
        el_nth: JSON.parse(row!.el_nth),
        el_attrs: JSON.parse(row!.el_attrs),
        el_text: row!.el_text,
      };
      t.same(sql, expected, elements);
    }),
    { numRuns: 150 },
  );
  t.ok(n >= 150);
  t.equal(elementColumns('pp.page_view', [{ tag: 'a' }]), null, 'only click and form-submit events have them');
});

t.test('events stored before the columns existed are matched through their chains', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const services = server.running.services;
  const chain = [
    { tag: 'span', text: 'Buy' },
    { tag: 'button', id: 'buy', classes: ['btn'], nth_child: 2, attributes: { 'data-pp-name': 'buy' } },
  ];
  // As an older version stored them: the chain only, no element columns.
  const insert = (event: string, elements: unknown, url: string) =>
    services.events.write(
      `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, source, url, elements)
       VALUES ($1, uuid(), CAST($2 AS TIMESTAMPTZ), CAST($2 AS TIMESTAMPTZ), $3, 'a', 'browser', $4, $5)`,
      [project.id, '2026-10-30T10:00:00Z', event, url, elements === null ? null : JSON.stringify(elements)],
    );
  await insert('pp.click', chain, 'https://shop.example/pricing');
  await insert('pp.click', [{ tag: 'a', text: 'Docs' }], 'https://shop.example/pricing');
  await insert('pp.form_submit', [{ tag: 'form', id: 'signup' }], 'https://shop.example/signup');
  const stored = await readTable(server, 'SELECT count(el_tags) AS n FROM events WHERE project_id = $1', [project.id]);
  t.same(stored, [{ n: 0 }], 'no element columns stored');
  const base = `/api/v1/projects/${project.id}/labeled-events`;
  const body = { base_event: 'pp.click', selector: '[data-pp-name=buy] span', match_text: 'buy', url_pattern: '/pricing' };
  t.equal((await server.request('POST', `${base}/preview`, { token, body })).body.count, 1, 'the preview matches the old click');
  const created = await server.request('POST', base, { token, body: { ...body, event_name: 'buy' } });
  const form = await server.request('POST', base, { token, body: { base_event: 'pp.form_submit', selector: 'form#signup', event_name: 'signed_up' } });
  for (const id of [created.body.id, form.body.id]) {
    const rule = await eventually(
      'the rule derived',
      async () => (await server.request('GET', `${base}/${id}`, { token })).body,
      (r) => r.materialization?.state === 'succeeded',
    );
    t.equal(rule.labeled_events, 1, `${rule.event_name}: the old event is labeled`);
  }
  const rows = await readTable(server, 'SELECT count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NULL AND el_tags IS NOT NULL', [project.id]);
  t.same(rows, [{ n: 0 }], 'and the stored events are left as they were (an update would move them)');
});

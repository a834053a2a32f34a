// The element columns rules match are computed twice: in TypeScript as events are stored
// (server/ingest/elementColumns.ts) and by the pp_el_* macros of migration 0028 for events stored
// before it (and seeded ones). On random chains, odd shapes included, both give the same columns.

import t from 'tap';
import fc from 'fast-check';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { readTable } from '../support/ingest.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';

const word = fc.constantFrom('a', 'btn', 'Buy', 'data', 'x\u001ey', 'q"t', 'é', '', ' ');
const odd = fc.oneof(word, fc.integer({ min: -3, max: 3 }), fc.constant(null), fc.boolean(), fc.constant(2_147_483_648));
const element = fc.oneof(
  { weight: 8, arbitrary: fc.record(
    {
      tag: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('div', 'BUTTON', 'a', 'my-el') }, { weight: 1, arbitrary: odd }),
      id: fc.oneof(word, odd),
      classes: fc.oneof({ weight: 4, arbitrary: fc.array(fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: odd }), { maxLength: 4 }) }, { weight: 1, arbitrary: odd }),
      nth_child: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 9 }) }, { weight: 1, arbitrary: odd }),
      text: fc.oneof(word, odd),
      attributes: fc.oneof(
        { weight: 4, arbitrary: fc.dictionary(fc.constantFrom('href', 'data-pp-name', 'aria-label', 'Bad', '$x', 'a.b', '1a', 'x y'), fc.oneof({ weight: 4, arbitrary: word }, { weight: 1, arbitrary: odd }), { maxKeys: 4 }) },
        { weight: 1, arbitrary: odd },
      ),
    },
    { requiredKeys: [] },
  ) },
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

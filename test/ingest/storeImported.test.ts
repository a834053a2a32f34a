// Imported rows (storeImported, the bulk path of imports) are stored exactly as live ingestion's
// writer stores the same rows, column by column, the distinct key included: awkward texts (line
// feeds, quotes, NUL, lone surrogates, very long ids), extreme numbers and times, a negative zero,
// element columns, labeled-event fields, soft defects, JSON text that is not minified.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { readTable } from '../support/ingest.js';
import { createProject } from '../../server/accounts/projects.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { normalizeEvent, type EventRow } from '../../server/ingest/normalizeEvent.js';
import { storeImported } from '../../server/ingest/storeImported.js';
import type { TrackEvent } from '../../server/ingest/eventSchema.js';

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AWKWARD = 'line\nfeed\r, "quoted" \\ back\tslash — Café ☕ 😀 \u2028 \x1e\x1f \u0000 end';

const events: TrackEvent[] = [
  { event: 'signup', uuid: U(1), user_id: 'u1', ts: '2024-01-15T10:23:45.123Z', props: { plan: 'pro', text: AWKWARD, nested: { a: [1, 'two', null, 0.1 + 0.2, 1e21, -1e-7, 2 ** 53] } } },
  { event: 'purchase', uuid: U(2), user_id: 'u1', anonymous_id: 'a1', session_id: 's1', ts: '1970-01-02T00:00:00.001Z', props: { revenue: '19.90' } },
  { event: 'purchase', uuid: U(3), user_id: 'u2', ts: '2999-12-30T23:59:59.999Z', props: { revenue: 'lots' } },
  {
    event: 'refund',
    uuid: U(4),
    user_id: 'u1',
    ts: '2024-02-29T12:00:00Z',
    props: { revenue: -5 },
    url: 'https://shop.example/orders/7?utm_campaign=x&secret=1#top',
    referrer: 'https://news.example/?q=1',
  },
  { event: 'purchase', uuid: U(5), anonymous_id: AWKWARD, ts: '2024-03-01T00:00:00Z', props: { revenue: 1.7976931348623157e308 } },
  { event: 'purchase', uuid: U(6), anonymous_id: 'a6', ts: '2024-03-01T00:00:00Z', props: { revenue: 5e-324 } },
  {
    event: 'pp.click',
    uuid: U(7),
    anonymous_id: 'a9',
    ts: '2024-03-02T09:00:00Z',
    url: 'https://example.com/pricing',
    elements: [
      { tag: 'button', id: 'buy', classes: ['btn', 'primary'], text: `Buy ${AWKWARD}`, attributes: { 'data-plan': 'pro' } },
      { tag: 'div', nth: 3 },
    ],
  },
  { event: `event ${AWKWARD}`, uuid: U(8), user_id: `${'long '.repeat(20_000)}`, ts: '2024-03-03T00:00:00Z', release: '', props: {} },
];

/** The rows live ingestion stores for the events, with fields only imports and labeled events carry. */
function rows(projectId: number): EventRow[] {
  const receivedAt = new Date('2024-03-04T00:00:00.000Z');
  const made = events.map((ev) => normalizeEvent(ev, { projectId, receivedAt, source: 'server', sdk: { name: 'pp-node', version: '1.2.3' }, keyId: 'key' }));
  Object.assign(made[1]!, { rule_id: 2 ** 40, source_uuid: U(1), source: 'system' });
  Object.assign(made[2]!, { invalid: true, invalid_reasons: ['ts_in_future', 'revenue_not_numeric'] });
  // Not minified JSON text, as an export of another build might hold it.
  Object.assign(made[3]!, { props: '{"revenue": -5,  "x":[1.0, 2e3]}' });
  Object.assign(made[4]!, { key_id: null, sdk_name: null, sdk_version: null });
  return made;
}

const columns = async (server: Awaited<ReturnType<typeof startTestServer>>, projectId: number) =>
  readTable(server, 'SELECT CAST(COLUMNS(* EXCLUDE (project_id)) AS VARCHAR) FROM events WHERE project_id = $1 ORDER BY rowid', [projectId]);

t.test('imported rows are stored as live ingestion stores them', async (t) => {
  const server = await startTestServer(t);
  const { services } = server.running;
  const { org, project: live } = await createTenant(server);
  const bulk = createProject(services.meta, { orgId: org.id, name: 'Bulk', timezone: 'UTC' }, services.clock.now());
  const writer = ingestWriter(services);
  const appender = services.events.appender;

  const appended = rows(live.id);
  for (const row of appended) row.distinct_key = distinctKey(row.distinct_id);
  await writer.exclusive((conn) => appender.append(conn, { events: appended, rejections: [] }));
  t.same(await storeImported(services, bulk.id, rows(bulk.id)), { stored: events.length, duplicates: 0 });
  const expected = await columns(server, live.id);
  t.equal(expected.length, events.length);
  t.same(await columns(server, bulk.id), expected, 'every column alike');
  t.ok(expected.every((r) => r.distinct_key !== null));

  await t.test('lone surrogates and a negative zero too', async (t) => {
    const odd = (projectId: number): EventRow[] => {
      const [a, b] = rows(projectId);
      Object.assign(a!, { uuid: U(100), props: JSON.stringify({ text: 'half \ud83d a pair' }), user_id: 'lone \udc00' });
      Object.assign(b!, { uuid: U(200), revenue: -0 });
      return [a!, b!];
    };
    const other = createProject(services.meta, { orgId: org.id, name: 'Appended', timezone: 'UTC' }, services.clock.now());
    const plain = odd(other.id);
    for (const row of plain) row.distinct_key = distinctKey(row.distinct_id);
    await writer.exclusive((conn) => appender.append(conn, { events: plain, rejections: [] }));
    t.same(await storeImported(services, bulk.id, odd(bulk.id)), { stored: 2, duplicates: 0 });
    const all = await columns(server, bulk.id);
    t.same(all.slice(events.length), await columns(server, other.id));
    t.equal(all[events.length + 1]!.revenue, '-0.0');
  });
});

// How the ClickHouse appender sends events: as JSONEachRow lines after the INSERT, every column read
// back as it was given, for any text (tabs, newlines, backslashes, quotes, NUL and other control
// characters, unicode, a lone surrogate made U+FFFD), in arrays and nullable columns, 64-bit
// integers whole; and when it looks for events stored before: a batch loaded again is stored once,
// a batch the ingest writer loads for the first time is not looked for (one node).

import t from 'tap';
import fc from 'fast-check';
import type { StoredEvent } from '../../../server/engine/rows.js';
import { ClickHouseAppender } from '../../../server/engine/clickhouse/clickHouseAppender.js';
import { ClickHouseConnection } from '../../../server/engine/clickhouse/connection.js';
import { engineConnection } from '../../../server/engine/clickhouse/engineConnection.js';
import { migrateClickHouse } from '../../../server/engine/clickhouse/migrations.js';
import { propertyColumns } from '../../../server/engine/clickhouse/properties.js';
import { startClickHouse } from '../../support/clickhouseCluster.js';

const AWKWARD_UNITS = ['\t', '\n', '\r', '\\', '"', "'", '\u0000', '\u0001', '\u001f', '\u007f', '\u2028', 'é', '日', '😀', '\ud800', '\udc00', '\\u0000', '\\ud800', '[', ',', ' ', 'a'];

/** Text of any of those units, and of any code unit at all (so lone surrogates too). */
const text = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...AWKWARD_UNITS),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  ),
  maxLength: 24,
});
const nullableText = fc.option(text, { nil: null });

/** What ClickHouse holds of a JavaScript string: its UTF-8, a lone surrogate as U+FFFD. */
function stored(s: string): string;
function stored(s: string | null): string | null;
function stored(s: string | null): string | null {
  return s === null ? null : Buffer.from(s, 'utf8').toString('utf8');
}

const PROJECT_BASE = 100;
let runs = 0;

const eventArb = fc.record({
  event: text,
  distinct_id: text,
  anonymous_id: nullableText,
  user_id: nullableText,
  session_id: nullableText,
  source: text,
  sdk_name: nullableText,
  sdk_version: nullableText,
  key_id: fc.option(
    text.filter((s) => s !== ''),
    { nil: null },
  ),
  release: nullableText,
  url: nullableText,
  path: nullableText,
  referrer: nullableText,
  props: fc.option(fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean(), fc.array(text, { maxLength: 3 })), { maxKeys: 4 }), { nil: null }),
  // Integers and halves: 18.16 reads some other double texts one unit off (properties.ts), in any format.
  revenue: fc.option(
    fc.oneof(
      fc.integer({ min: -1e9, max: 1e9 }),
      fc.integer({ min: -1e6, max: 1e6 }).map((n) => n + 0.5),
    ),
    { nil: null },
  ),
  elements: nullableText,
  invalid: fc.boolean(),
  invalid_reasons: fc.option(fc.array(text, { maxLength: 3 }), { nil: null }),
  el_tags: fc.array(nullableText, { maxLength: 3 }),
  el_ids: fc.array(nullableText, { maxLength: 3 }),
  el_classes: fc.array(nullableText, { maxLength: 3 }),
  el_nth: fc.array(fc.option(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), { nil: null }), { maxLength: 3 }),
  el_attrs: fc.array(text, { maxLength: 3 }),
  el_text: nullableText,
  distinct_key: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  tsMs: fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2105, 0, 1) }),
  receivedMs: fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) }),
});

const uuidOf = (run: number, i: number) => `00000000-0000-4000-8000-${(run * 1000 + i).toString(16).padStart(12, '0')}`;

type Generated = typeof eventArb extends fc.Arbitrary<infer T> ? T : never;

function storedEvent(projectId: number, uuid: string, e: Generated): StoredEvent {
  const { tsMs, receivedMs, props, ...rest } = e;
  return { ...rest, project_id: projectId, uuid, ts: new Date(tsMs), received_at: new Date(receivedMs), props: props === null ? null : JSON.stringify(props) };
}

t.test('ClickHouse appender rows', async (t) => {
  const ch = await startClickHouse(t, 'single');
  const conn = new ClickHouseConnection({ urls: ch.urls, database: 'pp_rows', user: 'default' });
  t.teardown(() => conn.close());
  await migrateClickHouse(conn);
  const appender = new ClickHouseAppender({ replicas: 1 });
  const writer = engineConnection(conn);

  await t.test('every column reads back as given, for any text', async (t) => {
    await fc.assert(
      fc.asyncProperty(fc.array(eventArb, { minLength: 1, maxLength: 4 }), async (generated) => {
        const run = ++runs;
        const projectId = PROJECT_BASE + run;
        const events = generated.map((e, i) => storedEvent(projectId, uuidOf(run, i), e));
        await appender.append(writer, { events, rejections: [], firstAttempt: true });
        const rows = await conn.query<Record<string, unknown>>(
          `SELECT toString(uuid) AS uuid, event, distinct_id, toString(distinct_key) AS distinct_key, anonymous_id, user_id, session_id, source, sdk_name, sdk_version,
             key_id, release, url, path, referrer, props, revenue, elements, invalid, invalid_reasons, el_tags, el_ids, el_classes, el_nth, el_attrs, el_text,
             prop_keys, prop_values, prop_numbers, prop_kinds,
             toString(toUInt64(ts) * 1000 + intDiv(ts_us, 1000)) AS ts, toString(toUInt64(received_at) * 1000 + intDiv(received_us, 1000)) AS received
           FROM events WHERE project_id = ${projectId} ORDER BY uuid`,
        );
        const expected = events.map((e) => {
          const props = propertyColumns(e.props);
          return {
            uuid: e.uuid,
            event: stored(e.event),
            distinct_id: stored(e.distinct_id),
            distinct_key: e.distinct_key!.toString(),
            anonymous_id: stored(e.anonymous_id),
            user_id: stored(e.user_id),
            session_id: stored(e.session_id),
            source: stored(e.source),
            sdk_name: stored(e.sdk_name),
            sdk_version: stored(e.sdk_version),
            key_id: stored(e.key_id) ?? '',
            release: stored(e.release),
            url: stored(e.url),
            path: stored(e.path),
            referrer: stored(e.referrer),
            props: stored(e.props),
            revenue: e.revenue,
            elements: stored(e.elements),
            invalid: e.invalid ? 1 : 0,
            invalid_reasons: (e.invalid_reasons ?? []).map(stored),
            el_tags: e.el_tags!.map(stored),
            el_ids: e.el_ids!.map(stored),
            el_classes: e.el_classes!.map(stored),
            el_nth: e.el_nth,
            el_attrs: e.el_attrs!.map(stored),
            el_text: stored(e.el_text ?? null),
            prop_keys: props.keys.map(stored),
            prop_values: props.values.map(stored),
            prop_numbers: props.numbers.map((n) => (n === null ? null : n.toString())),
            prop_kinds: props.kinds,
            ts: String(e.ts.getTime()),
            received: String(e.received_at.getTime()),
          };
        });
        t.same(rows, expected);
        return true;
      }),
      { numRuns: 15 },
    );
  });

  const count = async (projectId: number, final = '') => Number((await conn.query<{ n: string }>(`SELECT count() AS n FROM events ${final} WHERE project_id = ${projectId}`))[0]!.n);
  const plain = (projectId: number, i: number): StoredEvent => ({
    project_id: projectId,
    uuid: uuidOf(0, projectId * 10 + i),
    ts: new Date('2026-03-02T09:59:00.123Z'),
    received_at: new Date('2026-03-02T10:00:00.456Z'),
    event: 'signup',
    distinct_id: `user-${i}`,
    anonymous_id: null,
    user_id: `user-${i}`,
    session_id: null,
    source: 'server',
    sdk_name: null,
    sdk_version: null,
    key_id: 'key',
    release: null,
    url: null,
    path: null,
    referrer: null,
    props: null,
    revenue: null,
    elements: null,
    invalid: false,
    invalid_reasons: null,
    distinct_key: BigInt(i),
  });

  await t.test('a batch loaded again (not a first attempt) is stored once; a first attempt is not looked for', async (t) => {
    const batch = { events: [plain(1, 1), plain(1, 2)], rejections: [], journalPosition: 4, firstAttempt: true };
    await appender.append(writer, batch);
    // Loaded again from the journal (after a failed load or a crash): what is stored is left out.
    await appender.append(writer, { ...batch, events: [...batch.events, plain(1, 3)], journalPosition: 5, firstAttempt: false });
    t.equal(await count(1), 3, 'the events stored before are not stored again');
    await appender.append(writer, { ...batch, firstAttempt: undefined });
    t.equal(await count(1), 3, 'without the mark, the batch is looked for');
    // The mark is the ingest writer's promise that no earlier attempt stored these: the appender
    // takes it at its word (the events collapse into one row per uuid as parts merge).
    await appender.append(writer, { ...batch, firstAttempt: true });
    t.equal(await count(1), 5, 'a first attempt is sent whole');
    t.equal(await count(1, 'FINAL'), 3, 'read with FINAL, each event counts once');
  });
});

// Labeled-event matching on ClickHouse (one node) against the same reference as matching.test.ts:
// the hand-made examples, then random events and rules — the preview count, the events derived over
// history by the rule's job, those derived at ingest, teardown and re-derivation with the same
// uuids, and a rule changed to another (its stale events deleted, the missing ones derived). The
// derived rows are read from ClickHouse itself.

import t from 'tap';
import fc from 'fast-check';
import { queryHarness } from '../queries/harness.js';
import { literal } from '../../server/engine/clickhouse/literal.js';
import { ruleMatches, type OracleRule } from '../oracles/labeled.js';
import { eventsArb, momentArb, ruleArb } from './arbitraries.js';
import { NOW, labeledApi, ruleBody, type Tally } from './examples.js';

const h = await queryHarness(t, { engine: 'clickhouse', settings: { 'rate_limit.user_per_minute': 100_000, 'rate_limit.ip_per_minute': 100_000 } });
const read = (sql: string) => h.server.running.services.events.read(sql);

async function setNow(now: Date): Promise<void> {
  h.server.clock.set(now);
  await h.renewToken();
}

const api = labeledApi(h, () => h.token);

/**
 * `ruleId|source uuid` of every derived event stored on ClickHouse, each checked against its source:
 * its rule's name, source 'system', the source's time, ids, session and page, no elements nor revenue.
 */
async function derivedPairs(p: number, names: Map<number, string>): Promise<string[]> {
  const rows = await read(
    `SELECT toString(uuid) AS id, event AS name, source AS origin, toString(rule_id) AS rule, toString(source_uuid) AS from_uuid,
            toString(toUInt64(ts) * 1000000 + ts_us) AS at, distinct_id AS did, anonymous_id AS anon, session_id AS sess, url AS page,
            isNull(elements) AND isNull(revenue) AND length(el_tags) = 0 AS bare
       FROM events FINAL WHERE project_id = ${literal(p)}`,
  );
  const sources = new Map(rows.filter((r) => r.rule === null).map((r) => [String(r.id), r]));
  const derived = rows.filter((r) => r.rule !== null);
  for (const r of derived) {
    const where = `derived ${r.id} of rule ${r.rule} from ${r.from_uuid}`;
    const s = sources.get(String(r.from_uuid));
    if (r.name !== names.get(Number(r.rule))) throw new Error(`${where}: event ${r.name}, expected ${names.get(Number(r.rule))}`);
    if (r.origin !== 'system') throw new Error(`${where}: source ${r.origin}`);
    if (!s || s.at !== r.at || s.did !== r.did || s.anon !== r.anon || s.sess !== r.sess || s.page !== r.page) throw new Error(`${where}: time, identity or page differ from the source event's`);
    if (Number(r.bare) !== 1) throw new Error(`${where}: carries elements or revenue`);
  }
  const pairs = derived.map((r) => `${r.rule}|${r.from_uuid}`);
  if (new Set(pairs).size !== pairs.length) throw new Error('duplicate derived events');
  return pairs.sort();
}

/** The derived events of one rule as `source>uuid`. */
async function derivedUuids(p: number, ruleId: number): Promise<string[]> {
  const rows = await read(`SELECT toString(source_uuid) AS s, toString(uuid) AS u FROM events FINAL WHERE project_id = ${literal(p)} AND rule_id = ${literal(ruleId)}`);
  return rows.map((r) => `${r.s}>${r.u}`).sort();
}

t.test('the hand-made examples on ClickHouse', async (t) => {
  await setNow(NOW);
  await api.handMadeExamples(t, derivedPairs);
});

const caseArb = momentArb.chain((moment) =>
  fc.record({
    moment: fc.constant(moment),
    seeded: eventsArb(moment, 30, 80),
    ingested: eventsArb(moment, 3, 8),
    rules: fc.array(ruleArb, { minLength: 1, maxLength: 3 }),
    changed: ruleArb,
  }),
);

t.test('random rules on ClickHouse agree with the reference', async (t) => {
  const tally: Tally = { compared: 0, matched: 0 };
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ moment, seeded, ingested, rules: inputs, changed }) => {
      await setNow(moment.now);
      const c = await api.startCase(moment, seeded, inputs as OracleRule[], derivedPairs, tally);
      const { p, rules, context } = c;
      await api.arrive(c, ingested, async (uuids) => {
        const rows = await read(`SELECT count() AS n FROM events WHERE project_id = ${literal(p)} AND isNull(rule_id) AND toString(uuid) IN (${uuids.map((u) => literal(u)).join(', ')})`);
        return Number(rows[0]!.n);
      });

      // Disabling tears the first rule's events down; enabling derives the same events again.
      await api.disableAndEnable(p, rules, c.check, (ruleId) => derivedUuids(p, ruleId), context);
      const [first, ...others] = rules;

      // A rule changed to another keeps what still matches, loses the rest and gains what is missing.
      const edited = await h.server.request('PATCH', `${api.base(p)}/${first!.id}`, { body: ruleBody(changed as OracleRule, 'rule_0'), token: h.token });
      if (edited.status !== 200) throw new Error(`change: ${edited.status} ${edited.text}`);
      const view = await api.settled(p, first!.id, 'active');
      const now = [{ id: first!.id, rule: changed as OracleRule }, ...others];
      const want = c.events.filter((e) => ruleMatches(changed as OracleRule, e)).length;
      if (view.materialization!.derived_events !== want) throw new Error(`changed rule: derived_events ${view.materialization!.derived_events}, expected ${want} ${context}`);
      await c.check('after changing the first rule', now);
    }),
    { numRuns: 6, seed: 20261128 },
  );
  t.ok(tally.matched > tally.compared / 10 && tally.matched < tally.compared / 2, `${tally.matched} derived of ${tally.compared} (rule, event of its base event) pairs compared`);
});

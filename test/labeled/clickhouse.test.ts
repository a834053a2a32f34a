// Labeled-event matching on ClickHouse (one node) against the same reference as matching.test.ts:
// the hand-made examples, then random events and rules — the preview count, the events derived over
// history by the rule's job, those derived at ingest, teardown and re-derivation with the same
// uuids, and a rule changed to another (its stale events deleted, the missing ones derived). The
// derived rows are read from ClickHouse itself.

import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { queryHarness } from '../queries/harness.js';
import { seedEvents } from '../support/seedEvents.js';
import { createIngestKey } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { literal } from '../../server/engine/clickhouse/literal.js';
import { PREVIEW_WINDOW_MS, previewCount, ruleMatches, type OracleEvent, type OracleRule } from '../oracles/labeled.js';
import { eventsArb, momentArb, ruleArb } from './arbitraries.js';
import { EXAMPLES, NOW, exampleEvents, expectedPairs, pairDiff, ruleBody, toOracle, toSeed } from './examples.js';

const h = await queryHarness(t, { engine: 'clickhouse', settings: { 'rate_limit.user_per_minute': 100_000, 'rate_limit.ip_per_minute': 100_000 } });
const read = (sql: string) => h.server.running.services.events.read(sql);

async function setNow(now: Date): Promise<void> {
  h.server.clock.set(now);
  await h.renewToken();
}

const base = (p: number) => `/api/v1/projects/${p}/labeled-events`;

async function standardProject(tz: string): Promise<number> {
  const p = h.project(tz);
  const res = await h.server.request('PATCH', `/api/v1/projects/${p}/behavior/settings`, { body: { privacy_mode: 'standard' }, token: h.token });
  if (res.status !== 200) throw new Error(`behavior settings: ${res.status} ${res.text}`);
  return p;
}

async function createRule(p: number, rule: OracleRule, eventName: string): Promise<number> {
  const res = await h.server.request('POST', base(p), { body: ruleBody(rule, eventName), token: h.token });
  if (res.status !== 201) throw new Error(`create ${JSON.stringify(ruleBody(rule, eventName))}: ${res.status} ${res.text}`);
  return Number(res.body.id);
}

interface RuleView {
  state: string;
  materialization: { state: string; derived_events: number } | null;
}

/** Waits until the rule's latest job finished; a failed job fails the test with its error. */
async function settled(p: number, id: number, state: string): Promise<RuleView> {
  const res = await eventually(
    `rule ${id} ${state} with its job finished`,
    () => h.server.request<RuleView>('GET', `${base(p)}/${id}`, { token: h.token }),
    (r) => r.status !== 200 || (r.body.state === state && ['succeeded', 'failed'].includes(r.body.materialization?.state ?? '')),
    60_000,
  );
  if (res.status !== 200) throw new Error(`GET rule ${id}: ${res.status} ${res.text}`);
  if (res.body.materialization!.state !== 'succeeded') throw new Error(`rule ${id}: job ${res.text}`);
  return res.body;
}

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
  const p = await standardProject('Europe/Berlin');
  const events = exampleEvents();
  await seedEvents(h.server, p, events.map(toSeed));
  const rules: Array<{ id: number; rule: OracleRule }> = [];
  for (const [i, x] of EXAMPLES.entries()) rules.push({ id: await createRule(p, x.rule, `example_${i}`), rule: x.rule });
  for (const r of rules) await settled(p, r.id, 'active');
  const names = new Map(rules.map((r, i) => [r.id, `example_${i}`]));
  const actual = await derivedPairs(p, names);
  EXAMPLES.forEach((x, i) => t.equal(actual.includes(`${rules[i]!.id}|${events[i]!.uuid}`), x.expected, x.name));
  const diff = pairDiff(actual, expectedPairs(rules, events.map(toOracle)), rules, events.map(toOracle));
  t.notOk(diff, diff ?? 'every rule labels exactly the example events the reference says');
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
  let compared = 0;
  let matched = 0;
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ moment, seeded, ingested, rules: inputs, changed }) => {
      await setNow(moment.now);
      const p = await standardProject(moment.tz);
      const events = seeded.map((e) => ({ ...e, uuid: randomUUID() }));
      await seedEvents(h.server, p, events.map(toSeed));
      let all: OracleEvent[] = events.map(toOracle);
      const context = `in ${moment.tz} at ${moment.now.toISOString()}`;
      const ids = await Promise.all(inputs.map((r, i) => createRule(p, r, `rule_${i}`)));
      const rules = ids.map((id, i) => ({ id, rule: inputs[i]! as OracleRule }));
      const names = new Map(ids.map((id, i) => [id, `rule_${i}`]));
      for (const r of rules) {
        const view = await settled(p, r.id, 'active');
        const want = all.filter((e) => ruleMatches(r.rule, e)).length;
        if (view.materialization!.derived_events !== want) throw new Error(`rule ${JSON.stringify(r.rule)}: derived_events ${view.materialization!.derived_events}, expected ${want} ${context}`);
        const res = await h.server.request('POST', `${base(p)}/preview`, { body: ruleBody(r.rule), token: h.token });
        if (res.status !== 200) throw new Error(`preview ${JSON.stringify(r.rule)}: ${res.status} ${res.text}`);
        const count = previewCount(r.rule, all, moment.now);
        if (res.body.count !== count) throw new Error(`preview ${JSON.stringify(r.rule)} ${context}: count ${res.body.count}, expected ${count}`);
        if (Date.parse(res.body.from) !== moment.now.getTime() - PREVIEW_WINDOW_MS) throw new Error(`preview window from ${res.body.from}`);
      }
      const check = async (label: string, active: Array<{ id: number; rule: OracleRule }>) => {
        const expected = expectedPairs(active, all);
        const diff = pairDiff(await derivedPairs(p, names), expected, active, all);
        if (diff) throw new Error(`${label} ${context}:\n${diff}`);
        for (const r of active) compared += all.filter((e) => e.event === r.rule.base_event).length;
        matched += expected.length;
      };
      await check('derived over history', rules);

      // Events that arrive after the rules exist are derived as they are stored.
      const key = createIngestKey(h.server, { id: p }, { type: 'browser', domains: ['example.com', '*.example.com', '*.example.org'] });
      const arriving = ingested.map((e) => ({ ...e, uuid: randomUUID() }));
      const res = await h.server.request('POST', '/v1/track', {
        token: key.value,
        headers: { origin: 'https://shop.example.com', 'x-pp-tracker': 'pp-browser/0.6.5' },
        body: { events: arriving.map((e) => ({ ...toSeed(e), ts: e.ts.toISOString() })) },
      });
      if (res.status !== 202 || res.body.accepted !== arriving.length) throw new Error(`track: ${res.status} ${res.text}`);
      await ingestWriter(h.server.running.services).loaded();
      await eventually(
        'the tracked events loaded',
        () => read(`SELECT count() AS n FROM events WHERE project_id = ${literal(p)} AND isNull(rule_id) AND toString(uuid) IN (${arriving.map((e) => literal(e.uuid)).join(', ')})`),
        (rows) => Number(rows[0]!.n) === arriving.length,
      );
      all = [...all, ...arriving.map(toOracle)];
      await check('derived at ingest', rules);

      // Disabling tears the first rule's events down; enabling derives the same events again.
      const [first, ...others] = rules;
      const before = await derivedUuids(p, first!.id);
      const disabled = await h.server.request('POST', `${base(p)}/${first!.id}/disable`, { token: h.token });
      if (disabled.status !== 204) throw new Error(`disable: ${disabled.status} ${disabled.text}`);
      const off = await settled(p, first!.id, 'disabled');
      if (off.materialization!.derived_events !== 0) throw new Error(`disabled rule: derived_events ${off.materialization!.derived_events}`);
      await check('after disabling the first rule', others);
      const enabled = await h.server.request('POST', `${base(p)}/${first!.id}/enable`, { token: h.token });
      if (enabled.status !== 204) throw new Error(`enable: ${enabled.status} ${enabled.text}`);
      await settled(p, first!.id, 'active');
      await check('after enabling it again', rules);
      if (JSON.stringify(await derivedUuids(p, first!.id)) !== JSON.stringify(before)) throw new Error(`re-derived events have other uuids ${context}`);

      // A rule changed to another keeps what still matches, loses the rest and gains what is missing.
      const edited = await h.server.request('PATCH', `${base(p)}/${first!.id}`, { body: ruleBody(changed as OracleRule, 'rule_0'), token: h.token });
      if (edited.status !== 200) throw new Error(`change: ${edited.status} ${edited.text}`);
      const view = await settled(p, first!.id, 'active');
      const now = [{ id: first!.id, rule: changed as OracleRule }, ...others];
      const want = all.filter((e) => ruleMatches(changed as OracleRule, e)).length;
      if (view.materialization!.derived_events !== want) throw new Error(`changed rule: derived_events ${view.materialization!.derived_events}, expected ${want} ${context}`);
      await check('after changing the first rule', now);
    }),
    { numRuns: 6, seed: 20261128 },
  );
  t.ok(matched > compared / 10 && matched < compared / 2, `${matched} derived of ${compared} (rule, event of its base event) pairs compared`);
});

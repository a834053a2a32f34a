// Labeled-event matching against the real server: hand-made rule and chain examples, then random
// events and rules compared with test/oracles/labeled.ts — the preview count, the events derived
// over history by the rule's job, those derived at ingest, and teardown and re-derivation.

import t from 'tap';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { queryHarness } from '../queries/harness.js';
import { seedEvents } from '../support/seedEvents.js';
import { readTable } from '../support/ingest.js';
import { accessTokenFor, addMember } from '../support/factories.js';
import { PREVIEW_WINDOW_MS, previewCount, ruleMatches } from '../oracles/labeled.js';
import { eventsArb, momentArb, ruleArb } from './arbitraries.js';
import { EXAMPLES, NOW, SHOP, exampleEvents, labeledApi, rule, ruleBody, toOracle, toSeed, type Tally } from './examples.js';

// Every rule's job is polled every 100 ms by one analyst: on a loaded machine the jobs take long
// enough for that to pass the budgets of 600 requests a minute a user and 1,200 an address, which
// are not what is tested here.
const h = await queryHarness(t, { settings: { 'rate_limit.user_per_minute': 100_000, 'rate_limit.ip_per_minute': 100_000 } });
const analyst = await addMember(h.server, h.tenant.org, 'analyst', { password: null });
let token = await accessTokenFor(h.server, analyst, h.tenant.org);

/** Moves the clock and mints tokens valid at the new time. */
async function setNow(now: Date): Promise<void> {
  h.server.clock.set(now);
  await h.renewToken();
  token = await accessTokenFor(h.server, analyst, h.tenant.org);
}

const api = labeledApi(h, () => token);

interface DerivedRow {
  rule_id: number;
  source_uuid: string;
  uuid: string;
  event: string;
  source: string;
  /** Time, identity, session and page are the source event's; no revenue, no element chain. */
  copied: boolean;
  bare: boolean;
}

async function derivedRows(p: number): Promise<DerivedRow[]> {
  const rows = await readTable(
    h.server,
    `SELECT d.rule_id, d.source_uuid::VARCHAR AS source_uuid, d.uuid::VARCHAR AS uuid, d.event, d.source,
            coalesce(d.ts = s.ts AND d.distinct_id = s.distinct_id AND d.anonymous_id IS NOT DISTINCT FROM s.anonymous_id
              AND d.session_id IS NOT DISTINCT FROM s.session_id AND d.url IS NOT DISTINCT FROM s.url, false) AS copied,
            d.elements IS NULL AND d.revenue IS NULL AS bare
       FROM events d LEFT JOIN events s ON s.project_id = d.project_id AND s.uuid = d.source_uuid AND s.rule_id IS NULL
      WHERE d.project_id = $1 AND d.rule_id IS NOT NULL
      ORDER BY d.rule_id, d.source_uuid`,
    [p],
  );
  return rows.map((r) => ({ ...r, rule_id: Number(r.rule_id) }) as DerivedRow);
}

/** `ruleId|source uuid` of every derived event, checking each one's own columns on the way. */
async function derivedPairs(p: number, names: Map<number, string>): Promise<string[]> {
  const rows = await derivedRows(p);
  for (const r of rows) {
    const where = `derived ${r.uuid} of rule ${r.rule_id} from ${r.source_uuid}`;
    if (r.event !== names.get(r.rule_id)) throw new Error(`${where}: event ${r.event}, expected ${names.get(r.rule_id)}`);
    if (r.source !== 'system') throw new Error(`${where}: source ${r.source}`);
    if (!r.copied) throw new Error(`${where}: time, identity or page differ from the source event's (or no source event)`);
    if (!r.bare) throw new Error(`${where}: carries elements or revenue`);
  }
  const pairs = rows.map((r) => `${r.rule_id}|${r.source_uuid}`);
  if (new Set(pairs).size !== pairs.length) throw new Error(`duplicate derived events: ${pairs.filter((x, i) => pairs.indexOf(x) !== i).join(', ')}`);
  if (new Set(rows.map((r) => r.uuid)).size !== rows.length) throw new Error('two derived events share a uuid');
  return pairs.sort();
}

// --- hand-made examples ----------------------------------------------------------------------

t.test('the reference matcher on the hand-made examples', async (t) => {
  const events = exampleEvents();
  EXAMPLES.forEach((x, i) => t.equal(ruleMatches(x.rule, toOracle(events[i]!)), x.expected, x.name));
  t.equal(previewCount(rule({}), [{ uuid: 'a', event: 'pp.click', ts: new Date(NOW.getTime() - PREVIEW_WINDOW_MS), url: null, elements: null }], NOW), 0, 'the window start is excluded');
  t.equal(previewCount(rule({}), [{ uuid: 'a', event: 'pp.click', ts: NOW, url: null, elements: null }], NOW), 1, 'now is included');
});

t.test('the server on the hand-made examples', async (t) => {
  await setNow(NOW);
  await api.handMadeExamples(t, derivedPairs);
});

t.test('a tab in match_text is whitespace the pattern collapses', async (t) => {
  await setNow(NOW);
  const p = await api.standardProject('UTC');
  const event = { uuid: randomUUID(), event: 'pp.click', ts: new Date(NOW.getTime() - 3_600_000), anonymous_id: 'a0', url: SHOP, elements: [{ tag: 'button', nth_child: 1, text: 'Sign up' }] };
  await seedEvents(h.server, p, [toSeed(event)]);
  const tabbed = rule({ match_text: ' sign\tup' });
  t.ok(ruleMatches(tabbed, toOracle(event)), 'the reference collapses the tab');
  const res = await h.server.request('POST', api.base(p), { body: ruleBody(tabbed, 'tabbed'), token });
  t.equal(res.status, 201, res.text);
  if (res.status !== 201) return;
  await api.settled(p, Number(res.body.id), 'active');
  t.strictSame(await derivedPairs(p, new Map([[Number(res.body.id), 'tabbed']])), [`${res.body.id}|${event.uuid}`]);
});

// --- random events and rules -----------------------------------------------------------------

const caseArb = momentArb.chain((moment) =>
  fc.record({
    moment: fc.constant(moment),
    seeded: eventsArb(moment, 40, 120),
    ingested: eventsArb(moment, 4, 10),
    rules: fc.array(ruleArb, { minLength: 1, maxLength: 4 }),
  }),
);

t.test('random rules agree with the reference', async (t) => {
  const tally: Tally = { compared: 0, matched: 0 };
  await fc.assert(
    fc.asyncProperty(caseArb, async ({ moment, seeded, ingested, rules: inputs }) => {
      await setNow(moment.now);
      const c = await api.startCase(moment, seeded, inputs, derivedPairs, tally);
      await api.arrive(c, ingested, async (uuids) => {
        const rows = await readTable(h.server, `SELECT count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NULL AND uuid::VARCHAR IN (${uuids.map((_, i) => `$${i + 2}`).join(', ')})`, [
          c.p,
          ...uuids,
        ]);
        return Number(rows[0]!.n);
      });

      // Disabling tears the first rule's events down; enabling derives the same events again.
      const uuidsOf = async (ruleId: number) =>
        (await derivedRows(c.p))
          .filter((r) => r.rule_id === ruleId)
          .map((r) => `${r.source_uuid}>${r.uuid}`)
          .sort();
      await api.disableAndEnable(c.p, c.rules, c.check, uuidsOf, c.context);
    }),
    { numRuns: 40, seed: 20260410 },
  );
  t.ok(tally.matched > tally.compared / 10 && tally.matched < tally.compared / 2, `${tally.matched} derived of ${tally.compared} (rule, event of its base event) pairs compared`);
});

// Activation drivers: a hand-checked example (anchors, maturity against as_of, the outcome window,
// the split, the chosen window and threshold, validation), the refusals, then random actors in
// zones with daylight saving compared with test/oracles/activationDrivers.ts, on DuckDB and on
// ClickHouse (one node). On 2 shards × 2 replicas: sharded.test.ts.

import t, { type Test } from 'tap';
import fc from 'fast-check';
import { difference, onEachEngine, type QueryHarness } from './harness.js';
import { ZONES, RUNS } from './scenarios.js';
import { seedEvents, seedIdentity, type SeedEvent } from '../support/seedEvents.js';
import { activationDriversOracle, idsIn, type ActivationDriversInput } from '../oracles/activationDrivers.js';

const DAY = 86_400_000;

const BODY = {
  date_from: '2026-03-01',
  date_to: '2026-03-10',
  anchor_event: 'signup',
  outcome: { event: 'report', from_day: 7, to_day: 14 },
};

// --- random data ---------------------------------------------------------------------------------

const EVENTS = ['invite', 'view', 'share', 'pp.click'];

const actorArb = fc.record({
  anchorDay: fc.integer({ min: -1, max: 11 }),
  anchorMinute: fc.integer({ min: 0, max: 24 * 60 - 1 }),
  behaviors: fc.array(fc.record({ event: fc.constantFrom(...EVENTS), hours: fc.integer({ min: -12, max: 24 * 12 }) }), { maxLength: 8 }),
  outcomes: fc.array(fc.integer({ min: 0, max: 24 * 20 }), { maxLength: 2 }),
  anonymous: fc.boolean(),
});

const queryArb = fc.record({
  from_day: fc.integer({ min: 1, max: 8 }),
  span: fc.integer({ min: 1, max: 6 }),
  windows: fc.option(fc.uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  exclude_managed_events: fc.boolean(),
  excluded_events: fc.subarray(['share']),
  candidate_limit: fc.integer({ min: 1, max: 4 }),
});

/** The cases every engine answers; `runs` of the random comparison. */
async function cases(t: Test, h: QueryHarness, runs: number): Promise<void> {
  await t.test('drivers over hand-made actors', async (t) => {
    const p = h.project('UTC');
    h.server.clock.set(new Date('2026-04-01T12:00:00Z'));
    await h.renewToken();
    const events: SeedEvent[] = [];
    const act = (id: string, signup: string, invites: number, retained: boolean) => {
      const at = Date.parse(`${signup}T09:00:00Z`);
      events.push({ event: 'signup', ts: new Date(at).toISOString(), user_id: id });
      for (let i = 0; i < invites; i++) events.push({ event: 'invite', ts: new Date(at + (i + 1) * 3_600_000).toISOString(), user_id: id });
      events.push({ event: 'view', ts: new Date(at + 60_000).toISOString(), user_id: id });
      if (retained) events.push({ event: 'report', ts: new Date(at + 8 * DAY).toISOString(), user_id: id });
    };
    // Discovery: 8 inviters (2 invites each) all retained, 8 others of whom 2 retained.
    const d = idsIn(true, 16, 'd');
    d.slice(0, 8).forEach((id) => act(id, '2026-03-02', 2, true));
    d.slice(8).forEach((id, i) => act(id, '2026-03-02', 0, i < 2));
    // Validation: 4 inviters, 3 retained; 4 others, 1 retained.
    const v = idsIn(false, 8, 'v');
    v.slice(0, 4).forEach((id, i) => act(id, '2026-03-03', 2, i < 3));
    v.slice(4).forEach((id, i) => act(id, '2026-03-03', 0, i < 1));
    // Anchored on 03-25: its window (04-01 to 04-07) has not closed by 04-01, so it is left out.
    act('late', '2026-03-25', 2, false);
    // A report on day 14 is outside [7, 14): not retained.
    events.push({ event: 'signup', ts: '2026-03-02T09:00:00Z', user_id: 'edge' }, { event: 'report', ts: '2026-03-16T10:00:00Z', user_id: 'edge' });
    await seedEvents(h.server, p, events);

    const res = await h.query(p, 'activation-drivers', { ...BODY, date_to: '2026-03-25' });
    t.equal(res.status, 200, res.text);
    const b = res.body;
    t.equal(b.as_of, '2026-04-01T12:00:00.000Z', 'the clock at the start of the request');
    t.match(b, { anchored: 26, eligible: 25, immature: 1, windows_days: [1, 3, 7] });
    t.equal(b.split.discovery_actors + b.split.validation_actors, 25);
    t.match(b.warning, /associations, not causes/);
    t.strictSame(
      b.drivers.map((x: { event: string }) => x.event),
      ['invite'],
      'view is done by everyone: no threshold splits them five and five',
    );
    const invite = b.drivers[0];
    t.match(invite, { window_days: 1, threshold: 1, validated: false, direction: 'positive' }, 'the shortest window and lowest threshold among equals');
    // Validation: 3 of 4 inviters retained, 1 of 4 others: phi = (3·3 − 1·1) / √(4·4·4·4) = 0.5.
    t.match(invite.validation, { actors: 8, support: 4, retention_above: 0.75, retention_below: 0.25, ppv: 0.75, tpr: 0.75 });
    t.equal(invite.validation.phi, 0.5);
    t.equal(invite.validation.lift, 0.75 / 0.5);
    t.equal(invite.band, 'highly predictive');
    t.ok(invite.validation.phi_low < 0, 'eight validation actors cannot exclude zero');

    const overlap = await h.query(p, 'activation-drivers', { ...BODY, behavior_windows_days: [1, 8] });
    t.equal(overlap.status, 422);
    t.equal(overlap.body.error.details.field, 'behavior_windows_days[1]');
    const backwards = await h.query(p, 'activation-drivers', { ...BODY, outcome: { event: 'report', from_day: 7, to_day: 7 } });
    t.equal(backwards.status, 422);
    const missing = await h.query(p, 'activation-drivers', { ...BODY, outcome: undefined });
    t.equal(missing.status, 422);
  });

  await t.test('the split: md5 bytes 8 to 15 little-endian, modulo 100, and shares as configured', async (t) => {
    const p = h.project('UTC');
    h.server.clock.set(new Date('2026-04-01T12:00:00Z'));
    await h.renewToken();
    // md5("actor-3")  = 7a3a414d474e4f3b 81991bf13b29be39: bytes 8–15 little-endian 0x39be293bf11b9981
    //   = 4160808443161844097, modulo 100 = 97 → validation (big-endian would give 17, bytes 0–7 34).
    // md5("actor-7")  = 561b8f3e7c5329d3 ae012f1c09decfd0: 0xd0cfde091c2f01ae = 15046489010777031086 → 86,
    //   validation (big-endian 16, bytes 0–7 42).
    // md5("actor-13") = 592b7111246785d6 83962fc8ea85c57b: 0x7bc585eac82f9683 = 8918681880504538755 → 55,
    //   discovery (big-endian 75, bytes 0–7 73).
    await seedEvents(
      h.server,
      p,
      ['actor-3', 'actor-7', 'actor-13'].map((id) => ({ event: 'signup', ts: '2026-03-02T09:00:00Z', user_id: id })),
    );
    const res = await h.query(p, 'activation-drivers', BODY);
    t.equal(res.status, 200, res.text);
    t.strictSame(res.body.split, {
      method: 'bytes 8 to 15 of the md5 of the actor id, read as a little-endian unsigned 64-bit integer, modulo 100: below 70 discovery, the rest validation',
      discovery_share: 0.7,
      validation_share: 0.3,
      discovery_actors: 1,
      validation_actors: 2,
    });
  });
  await t.test('random actors agree with the reference drivers', async (t) => {
    let withDrivers = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.array(actorArb, { minLength: 25, maxLength: 60 }),
        fc.integer({ min: 6, max: 30 }),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        async (tz, actors, nowDays, qs) => {
          // New York springs forward on 03-08, London on 03-29: anchors and windows cross them.
          const start = Date.parse('2026-03-01T00:00:00Z');
          const events: SeedEvent[] = [];
          const links: Array<[string, string]> = [];
          actors.forEach((a, i) => {
            const who = a.anonymous ? { anonymous_id: `anon${i}` } : { user_id: `user${i}` };
            const at = start + a.anchorDay * DAY + a.anchorMinute * 60_000;
            events.push({ event: 'signup', ts: new Date(at).toISOString(), ...who });
            for (const b of a.behaviors) events.push({ event: b.event, ts: new Date(at + b.hours * 3_600_000).toISOString(), ...who });
            for (const o of a.outcomes) events.push({ event: 'report', ts: new Date(at + o * 3_600_000).toISOString(), ...who });
            if (a.anonymous && i % 3 === 0) links.push([`anon${i}`, `user${i}`]);
          });
          const p = h.project(tz);
          const now = new Date(start + (12 + nowDays) * DAY + 7 * 3_600_000);
          h.server.clock.set(now);
          await h.renewToken();
          const stored = await seedEvents(h.server, p, events);
          for (const [from, to] of links) await seedIdentity(h.server, p, from, to);
          for (const q of qs) {
            const body: ActivationDriversInput = JSON.parse(
              JSON.stringify({
                date_from: '2026-03-01',
                date_to: '2026-03-10',
                anchor_event: 'signup',
                outcome: { event: 'report', from_day: q.from_day, to_day: q.from_day + q.span },
                behavior_windows_days: q.windows?.filter((w) => w <= q.from_day).length ? q.windows.filter((w) => w <= q.from_day) : undefined,
                exclude_managed_events: q.exclude_managed_events,
                excluded_events: q.excluded_events,
                candidate_limit: q.candidate_limit,
              }),
            );
            const res = await h.query(p, 'activation-drivers', body);
            if (res.status !== 200) throw new Error(`status ${res.status}: ${res.text}`);
            const diff = difference(res.body, activationDriversOracle(stored, links, body, tz, now));
            if (diff) throw new Error(`${JSON.stringify(body)} in ${tz}: ${diff}`);
            if (res.body.drivers.length > 0) withDrivers += 1;
          }
        },
      ),
      { numRuns: runs },
    );
    t.ok(withDrivers >= 3, `answers with drivers were compared (${withDrivers})`);
  });
}

onEachEngine(t, cases, { duckdb: RUNS });

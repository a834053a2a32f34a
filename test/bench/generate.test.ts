// The bench's data generator: the same seed gives the same events, the budget is exact, and the
// properties the engines' agreement relies on hold (whole, strictly increasing seconds per actor;
// identity links already resolved to a final user id; every event has a distinct id).

import { createHash } from 'node:crypto';
import t from 'tap';
import { generate, projectBudgets, PROJECTS, type GeneratedEvent, type IdentityLink } from './generate.js';

function run(seed: number, events: number): { hash: string; events: Array<[number, GeneratedEvent]>; links: Array<[number, IdentityLink]> } {
  const hash = createHash('sha256');
  const out: Array<[number, GeneratedEvent]> = [];
  const links: Array<[number, IdentityLink]> = [];
  generate(
    { seed, events },
    {
      event(p, e) {
        hash.update(`${p}:${JSON.stringify(e)}\n`);
        out.push([p, e]);
      },
      link(p, l) {
        hash.update(`link ${p}:${JSON.stringify(l)}\n`);
        links.push([p, l]);
      },
    },
  );
  return { hash: hash.digest('hex'), events: out, links };
}

t.test('the same seed gives the same data; another seed other data', async (t) => {
  const a = run(7, 20_000);
  const b = run(7, 20_000);
  const c = run(8, 20_000);
  t.equal(a.hash, b.hash);
  t.not(a.hash, c.hash);
});

t.test('exactly the requested number of events, shared by project', async (t) => {
  const { events } = run(3, 30_000);
  t.equal(events.length, 30_000);
  const perProject = PROJECTS.map((_, p) => events.filter(([q]) => q === p).length);
  t.same(perProject, projectBudgets(30_000));
});

t.test('what the cross-check between engines relies on', async (t) => {
  const { events, links } = run(11, 30_000);
  const resolved = new Map(links.map(([p, l]) => [`${p}/${l.distinctId}`, l.actorId]));
  const lastTs = new Map<string, number>();
  let outOfOrder = 0;
  let fractional = 0;
  for (const [p, e] of events) {
    const distinct = e.userId ?? e.anonymousId;
    if (!distinct) t.fail(`event ${e.uuid} has no distinct id`);
    if (e.ts % 1000 !== 0) fractional += 1;
    const actor = resolved.get(`${p}/${distinct}`) ?? distinct!;
    // Events of one person come out in time order, so per actor each must be later than the last.
    const key = `${p}/${actor}`;
    if ((lastTs.get(key) ?? -Infinity) >= e.ts) outOfOrder += 1;
    lastTs.set(key, e.ts);
  }
  t.equal(fractional, 0, 'timestamps are whole seconds');
  t.equal(outOfOrder, 0, 'no two events of one actor share a second');
  t.equal(links.filter(([p, l]) => resolved.has(`${p}/${l.actorId}`)).length, 0, 'every link points at a final actor, never at a linked id');
  t.ok(
    links.some(([, l]) => l.distinctId.startsWith('user_')),
    'some alias chains',
  );
  const names = new Set(events.map(([, e]) => e.event));
  for (const name of ['pp.page_view', 'pp.click', 'pp.rage_click', 'pp.dead_click', 'pp.scroll_depth', 'pp.form_submit', 'view_pricing', 'signup_completed', 'purchase', 'refund']) {
    t.ok(names.has(name), `generates ${name}`);
  }
  t.ok(
    events.some(([, e]) => typeof e.props?.revenue === 'number' && (e.props.revenue as number) < 0),
    'refunds carry negative revenue',
  );
});

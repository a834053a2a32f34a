// Path-cleaning limits: what PUT and the test call refuse (exact messages), how far a saved rule may
// grow a stored path in the paths query, and rules built to grow paths without end answered at
// once while the server's memory stays flat and its health answers keep coming; the time limit of
// the loops that check and trace rules.

import t from 'tap';
import { queryHarness } from './harness.js';
import { seedEvents } from '../support/seedEvents.js';
import type { PathRule } from '../oracles/paths.js';
import { checkPathRules, RULES_TIME_LIMIT_MS, timeLimit, traceCleaning } from '../../server/queries/pathCleaning.js';
import { watchHealth } from '../support/inProcessHealth.js';

const h = await queryHarness(t);
const x200 = 'x'.repeat(200);
const DOT: PathRule = { pattern: '.', alias: x200 };
const LONG_URL = `/${'b'.repeat(2047)}`; // 2,048 characters, the longest the test call takes
const limitMessage = (i: number) => `rules[${i}] could make the path of this URL longer than 4096 characters, the most a cleaned path may have`;

const base = (p: number) => `/api/v1/projects/${p}/path-cleaning`;
const put = (p: number, rules: unknown) => h.server.request('PUT', base(p), { token: h.token, body: { rules } });
const tryRules = (p: number, url: string, rules?: unknown) => h.server.request('POST', `${base(p)}/test`, { token: h.token, body: rules === undefined ? { url } : { url, rules } });

interface Refusal {
  name: string;
  rules: unknown;
  field: string;
  message: string;
}

// Refused by PUT and by the test call alike, before any URL is looked at.
const REFUSED: Refusal[] = [
  { name: '51 rules', rules: Array(51).fill({ pattern: 'a', alias: 'b' }), field: 'rules', message: 'invalid request body: rules must NOT have more than 50 items' },
  {
    name: 'an alias of 201 characters',
    rules: [{ pattern: 'a', alias: 'x'.repeat(201) }],
    field: 'rules[0].alias',
    message: 'invalid request body: rules[0].alias must NOT have more than 200 characters',
  },
  { name: '50 aliases of 200 characters', rules: Array(50).fill(DOT), field: 'rules', message: 'rules have aliases of 10000 characters together; at most 2000 are allowed' },
  {
    name: 'aliases of 2,001 characters together',
    rules: [...Array(10).fill(DOT), { pattern: 'a', alias: 'y' }],
    field: 'rules',
    message: 'rules have aliases of 2001 characters together; at most 2000 are allowed',
  },
  {
    name: 'a pattern JavaScript refuses',
    rules: [{ pattern: '/a(', alias: 'x' }],
    field: 'rules[0].pattern',
    message: 'rules[0].pattern is not a regular expression: Invalid regular expression: //a(/u: Unterminated group',
  },
];

t.test('rule lists refused by PUT and by the test call, with the limit named', async (t) => {
  const p = h.project();
  for (const c of REFUSED) {
    for (const [route, res] of [
      ['PUT', await put(p, c.rules)],
      ['test', await tryRules(p, '/a', c.rules)],
    ] as const) {
      t.equal(res.status, 422, `${c.name} (${route})`);
      t.equal(res.body.error.code, 'validation_failed', `${c.name} (${route})`);
      t.equal(res.body.error.message, c.message, `${c.name} (${route})`);
      t.equal(res.body.error.details.field, c.field, `${c.name} (${route})`);
    }
  }
  t.equal((await put(p, Array(10).fill(DOT))).status, 200, '2,000 characters of aliases together are allowed');
});

interface Growth {
  name: string;
  url: string;
  rules: PathRule[];
  /** The index of the rule refused, or the path cleaned. */
  refused?: number;
  cleaned?: string;
}

// The test call cleans its URL and refuses the first rule whose result could pass 4,096 characters.
const GROWTH: Growth[] = [
  { name: 'two rules of 200 characters a character on 2,048', url: LONG_URL, rules: [DOT, DOT], refused: 0 },
  { name: 'four rules of 200 characters a character on /a', url: '/a', rules: [DOT, DOT, DOT, DOT], refused: 1 },
  { name: 'three characters each of 1,365: 4,095', url: `/${'c'.repeat(1364)}`, rules: [{ pattern: '.', alias: 'xxx' }], cleaned: 'xxx'.repeat(1365) },
  { name: 'three characters each of 1,366', url: `/${'c'.repeat(1365)}`, rules: [{ pattern: '.', alias: 'xxx' }], refused: 0 },
  { name: 'two characters each of 2,048: exactly 4,096', url: LONG_URL, rules: [{ pattern: '.', alias: 'xx' }], cleaned: 'xx'.repeat(2048) },
  { name: 'a group copied three times over 2,048', url: LONG_URL, rules: [{ pattern: '^(.*)$', alias: '\\1\\1\\1' }], refused: 0 },
  { name: 'a group copied twice over 2,048', url: LONG_URL, rules: [{ pattern: '^(.*)$', alias: '\\1\\1' }], cleaned: LONG_URL.repeat(2) },
  {
    name: 'an empty match between every character, a rule later',
    url: `/${'a'.repeat(30)}`,
    rules: [
      { pattern: 'b', alias: 'B' },
      { pattern: 'z*', alias: x200 },
    ],
    refused: 1,
  },
  { name: 'a whole long path made short', url: LONG_URL, rules: [{ pattern: '^/b+$', alias: '/b' }, DOT], cleaned: x200.repeat(2) },
];

t.test('the test call refuses a rule that could grow its URL past 4,096 characters', async (t) => {
  const p = h.project();
  for (const c of GROWTH) {
    const res = await tryRules(p, c.url, c.rules);
    if (c.refused === undefined) {
      t.equal(res.status, 200, c.name);
      t.equal(res.body.cleaned, c.cleaned, c.name);
      t.equal(res.body.steps.at(-1).result, c.cleaned, c.name);
    } else {
      t.equal(res.status, 422, c.name);
      t.strictSame(
        res.body.error,
        {
          code: 'validation_failed',
          message: limitMessage(c.refused),
          details: { field: `rules[${c.refused}].alias`, errors: [{ field: `rules[${c.refused}].alias`, message: limitMessage(c.refused) }] },
        },
        c.name,
      );
    }
  }
});

const SITE = 'https://shop.example';
const DOCS: PathRule = { pattern: '^/docs/.*$', alias: '/docs' };
const SAVED = [DOCS, DOT, DOT, DOT, DOT];
const PATHS_QUERY = { date_from: '2025-12-30', date_to: '2025-12-31', selected_event: 'pp.page_view', direction: 'after', depth: 3, mode: 'actor' };

async function projectWithSavedGrowth(): Promise<number> {
  const p = h.project();
  await seedEvents(h.server, p, [
    { event: 'pp.page_view', ts: '2025-12-30T10:00:00Z', url: `${SITE}/a`, user_id: 'ann' },
    { event: 'pp.page_view', ts: '2025-12-30T10:00:00Z', url: `${SITE}${LONG_URL}`, user_id: 'ben' },
    { event: 'pp.page_view', ts: '2025-12-30T10:00:00Z', url: `${SITE}/docs/${'d'.repeat(3000)}`, user_id: 'cy' },
  ]);
  const saved = await put(p, SAVED);
  if (saved.status !== 200) throw new Error(saved.text);
  return p;
}

t.test('saved rules never grow a stored path past 4,096 characters: such a rule leaves it as it was', async (t) => {
  const p = await projectWithSavedGrowth();
  const res = await h.query(p, 'paths', PATHS_QUERY);
  t.equal(res.status, 200, res.text);
  t.strictSame(
    res.body.routes.map((r: { items: string[] }) => r.items),
    [
      [LONG_URL], // 2,048 characters: the first DOT could make 409,800, so no rule changes it
      ['x'.repeat(400)], // /a: the first DOT makes 400 characters, the next could make 80,000
      ['x'.repeat(1000)], // 3,006 characters become /docs, the first DOT makes 1,000, the next could make 200,000
    ],
  );
  const traced = await tryRules(p, '/a');
  t.equal(traced.status, 422, 'the test call names the saved rule the query leaves out');
  t.equal(traced.body.error.message, limitMessage(2));
});

t.test('rules built to grow paths without end: answered at once, memory flat, health answering', async (t) => {
  const p = await projectWithSavedGrowth();
  await tryRules(p, '/a', [DOCS]); // warms a connection before the baseline
  const watch = watchHealth(h.server);
  const attacks = [
    ...Array.from({ length: 3 }, () => tryRules(p, LONG_URL, [DOT, DOT])),
    ...Array.from({ length: 3 }, () => tryRules(p, '/a', [DOT, DOT, DOT, DOT])),
    ...Array.from({ length: 3 }, () => tryRules(p, '/a', Array(50).fill(DOT))),
    ...Array.from({ length: 2 }, () => h.query(p, 'paths', PATHS_QUERY)),
  ];
  const answers = await Promise.all(attacks);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const { polls, worstMs, failures, peakRssGrowth } = await watch.stop();

  t.strictSame(
    answers.map((a) => a.status),
    [422, 422, 422, 422, 422, 422, 422, 422, 422, 200, 200],
  );
  t.ok(
    answers.every((a) => a.text.length < 20_000),
    'every answer is small',
  );
  t.ok(polls >= 5, `health asked ${polls} times`);
  t.same(failures, [], 'health answered 200 each time');
  t.ok(worstMs < 500, `every health answer within 500 ms of its time (slowest ${Math.round(worstMs)} ms)`);
  t.ok(peakRssGrowth < 100 * 2 ** 20, `resident memory grew ${Math.round(peakRssGrowth / 2 ** 20)} MB, under 100 MB`);
});

t.test('checking and tracing stop at their time limit with 408 query_timeout', async (t) => {
  const store = h.server.running.services.events;
  const expired = timeLimit(1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await t.rejects(checkPathRules(store, [DOCS], 'rules', expired), { status: 408, code: 'query_timeout', message: 'query exceeded its 1 ms time limit' });
  await t.rejects(traceCleaning(store, '/docs/a', [DOCS], 'rules', expired), { status: 408, code: 'query_timeout' });
  t.equal((await traceCleaning(store, '/docs/a', [DOCS], 'rules', timeLimit(RULES_TIME_LIMIT_MS))).cleaned, '/docs');
});

t.test('ClickHouse, one node: the test call traces as on DuckDB, and a group the pattern lacks is refused', async (t) => {
  const ch = await queryHarness(t, { engine: 'clickhouse' });
  const rules: PathRule[] = [
    { pattern: '/users/[0-9]+', alias: '/users/:id' },
    { pattern: '^/(docs)/(.*)$', alias: '/\\2/\\1\\\\' },
    { pattern: 'é+', alias: 'x\\qy' },
    { pattern: 'É+|\\bx\\b', alias: '-' },
  ];
  for (const url of ['/users/42/', '/docs/intro', '/caf%C3%A9/éé//', '/']) {
    const trace = async (hh: typeof h) => {
      const p = hh.project();
      const res = await hh.server.request('POST', `${base(p)}/test`, { token: hh.token, body: { url, rules } });
      return { status: res.status, body: res.body };
    };
    t.same(await trace(ch), await trace(h), `${url} traced as on DuckDB`);
  }
  const p = ch.project();
  const res = await ch.server.request('PUT', base(p), { token: ch.token, body: { rules: [{ pattern: '(a)', alias: '\\2' }] } });
  t.equal(res.status, 422, 'a group past the pattern is refused');
  t.equal(res.body.error.details.field, 'rules[0].pattern');
  for (const pattern of ['z*', '^', '$', '\\b', '(a|)', 'a{0}', '[^/]*']) {
    const empty = await ch.server.request('PUT', base(p), { token: ch.token, body: { rules: [{ pattern, alias: '-' }] } });
    t.equal(empty.status, 422, `${pattern}, which can match an empty string, is refused`);
    t.match(empty.body.error.message, /can match an empty string/);
  }
  for (const pattern of ['z+', '^/a', 'b$', '\\bx', '[$^]', '\\^', '(a|b)']) {
    t.equal((await ch.server.request('PUT', base(p), { token: ch.token, body: { rules: [{ pattern, alias: '-' }] } })).status, 200, `${pattern} is kept`);
  }
});

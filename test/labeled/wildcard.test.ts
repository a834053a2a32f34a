// The two wildcard matchers of url_pattern — the segment search of the ingest writer (matchRow.ts)
// and the RE2 expression of derivation and preview (matchSql.ts, run by the real event store) —
// against the reference on random patterns and paths, and on the worst cases of a backtracking
// matcher, which both must answer at once. Also the element chain's worst case in TypeScript.

import t from 'tap';
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../support/testServer.js';
import { compileRule, wildcardMatches } from '../../server/labeled/matchRow.js';
import { wildcardRegex, type RuleConditions } from '../../server/labeled/matchSql.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';
import type { EventRow } from '../../server/ingest/normalizeEvent.js';
import { pathPartOfPage, urlMatches } from '../oracles/labeled.js';
import { pageOfUrl } from '../oracles/behavior.js';

const server = await startTestServer(t);
const { events } = server.running.services;

/** What the event store's RE2 says of a pattern on a subject. */
async function sqlMatches(pattern: string, subject: string): Promise<boolean> {
  const [row] = await events.read('SELECT regexp_full_match($1, $2) AS m', [subject, wildcardRegex(pattern)]);
  return row!.m === true;
}

/** The subject a pattern is compared with: the normalized page, or its path for a pattern starting with `/`. */
function subjectOf(pattern: string, url: string): string {
  const page = pageOfUrl(url)!;
  return pattern.startsWith('/') ? pathPartOfPage(page) : page;
}

/** Path pieces the URL parser keeps as they are, regular-expression characters among them. */
const PIECES = ['a', 'a', 'b', '/', '/', 'ab', '(', ')', '+', '$', '|', '[', ']', '^', '{1}', 'a.b', '%2A'];
const bodyArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 10 }).map((p) => p.join(''));
const patternArb = fc
  .tuple(fc.constantFrom('/', '*', 'https://h.example/', 'https://h.example*'), fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.constant('*')), { maxLength: 10 }))
  .map(([start, parts]) => start + parts.join(''));
const urlArb = bodyArb.map((body) => `https://h.example/${body}`);

t.test('random patterns and paths: both matchers agree with the reference', async (t) => {
  let matched = 0;
  let compared = 0;
  await fc.assert(
    fc.asyncProperty(patternArb, urlArb, async (pattern, url) => {
      const want = urlMatches(pattern, url);
      const subject = subjectOf(pattern, url);
      if (!pattern.includes('*')) return;
      compared += 1;
      if (want) matched += 1;
      if (wildcardMatches(pattern, subject) !== want) throw new Error(`segment search: ${pattern} on ${subject}, expected ${want}`);
      if ((await sqlMatches(pattern, subject)) !== want) throw new Error(`RE2: ${pattern} on ${subject}, expected ${want}`);
    }),
    { numRuns: 1500, seed: 20261127 },
  );
  t.ok(matched > compared / 20 && matched < compared / 2, `${matched} of ${compared} pairs matched`);
});

t.test('hand-picked patterns', async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['*', '', true],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['**', 'x', true],
    ['*b*', 'abc', true],
    ['/x*y', '/x\ny', true],
    ['/(a)*', '/(a)b', true],
    ['/(a)*', '/ab', false],
    ['/a.b*', '/axb', false],
    ['/*$', '/$', true],
    ['/x*\\', '/x\\', true],
  ];
  for (const [pattern, subject, want] of cases) {
    t.equal(wildcardMatches(pattern, subject), want, `segment search: ${JSON.stringify(pattern)} on ${JSON.stringify(subject)}`);
    t.equal(await sqlMatches(pattern, subject), want, `RE2: ${JSON.stringify(pattern)} on ${JSON.stringify(subject)}`);
  }
});

t.test('the worst cases of a backtracking matcher answer at once', async (t) => {
  const patterns = ['/*a*a*a*a*a*a*a*b', `/${'*a'.repeat(100)}*b`, '/*a*a*a*a*a*a*a*', `*${'a*'.repeat(300)}`];
  for (const n of [80, 4000]) {
    for (const pattern of patterns) {
      for (const path of [`/${'a'.repeat(n)}`, `/${'a'.repeat(n)}b`]) {
        const want = urlMatches(pattern, `https://h.example${path}`);
        const subject = pattern.startsWith('/') ? path : `https://h.example${path}`;
        let started = performance.now();
        t.equal(wildcardMatches(pattern, subject), want, `segment search: ${pattern.slice(0, 20)}… on ${n} a's`);
        t.ok(performance.now() - started < 50, `segment search within 50 ms (${(performance.now() - started).toFixed(1)} ms)`);
        started = performance.now();
        t.equal(await sqlMatches(pattern, subject), want, `RE2: ${pattern.slice(0, 20)}… on ${n} a's`);
        t.ok(performance.now() - started < 1000, `RE2 within 1 s (${(performance.now() - started).toFixed(1)} ms)`);
      }
    }
  }
});

t.test('a long chain and a selector of descendant compounds that fails at its top answer at once', async (t) => {
  const chain = Array.from({ length: 50 }, () => ({ tag: 'div', nth_child: 1 }));
  const row = { event: 'pp.click', ...elementColumns('pp.click', chain) } as unknown as EventRow;
  const rule = (selector: string): RuleConditions => ({ base_event: 'pp.click', selector, url_pattern: null, match_text: null, attributes: [] });
  for (const [selector, want] of [
    [`section ${'div '.repeat(10)}div`, false],
    [`div ${'div '.repeat(10)}div`, true],
    [`${'div > '.repeat(11)}div`, true],
  ] as const) {
    const started = performance.now();
    t.equal(compileRule(rule(selector))({ row, pages: new Map() }), want, selector);
    t.ok(performance.now() - started < 50, `within 50 ms (${(performance.now() - started).toFixed(1)} ms)`);
  }
});

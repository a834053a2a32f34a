// Every per-event transformation of the ingest path fed its worst case — long runs of one
// character, 4 KB URLs, 64 KB properties nested deep, the longest element chains — must stay linear
// in its input: each event is checked, normalized and matched against url_pattern rules well within
// 50 ms. End to end, 240 such events sent with a browser token to a project with a url_pattern rule
// leave the installation answering its health check within 500 ms throughout.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { createIngestKey, readTable } from '../support/ingest.js';
import { checkEvent, ELEMENTS_MAX_BYTES, URL_MAX, PROPS_MAX_BYTES } from '../../server/ingest/eventSchema.js';
import { normalizeEvent, parseRevenue, pathOf } from '../../server/ingest/normalizeEvent.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';
import { jsonText } from '../../server/ingest/jsonText.js';
import { parseTracker } from '../../server/ingest/sdkInfo.js';
import { normalizePageUrl, pagePath, pathPartOf } from '../../server/behavior/pageUrl.js';
import { compileRule } from '../../server/labeled/matchRow.js';
import type { RuleConditions } from '../../server/labeled/matchSql.js';
import { ingestWriter } from '../../server/ingest/groupWriter.js';
import { watchHealth } from '../support/inProcessHealth.js';

const BOUND_MS = 50;
const RUNS = ['/', 'a', '%', ':', '?', '#', '&', '=', '+', '.', '!', '1', ' ', '\ud800', '\x1e', '\\'];
const HOST = 'https://example.com';

/** URLs of at most URL_MAX characters made of one long run, at the start, in the path, in the host and before a port. */
function worstUrls(): string[] {
  const out: string[] = [];
  for (const ch of RUNS) {
    const run = ch.repeat(4000);
    out.push(run, `${HOST}/${run}x`, `${HOST}/${run}`, `http://${run}:80`, `https://${run}:443/`, `${HOST}${run}`, `/${run}/x`, `h${run}://x`);
  }
  return out.filter((u) => u.length <= URL_MAX);
}

/** Properties near 64 KB: revenue strings built to trouble a number pattern, deep nesting, escapes, many keys. */
function worstProps(): Array<Record<string, unknown>> {
  const deep = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : { k: deep(levels - 1, leaf), s: 'x'.repeat(200) });
  return [
    { revenue: `${'1'.repeat(60_000)}x` },
    { revenue: `+${'1'.repeat(30_000)}.${'1'.repeat(30_000)}e` },
    { revenue: `${' '.repeat(30_000)}1${' '.repeat(30_000)}` },
    { revenue: '.'.repeat(60_000) },
    { nested: deep(15, 'y'.repeat(50_000)) },
    { s: '\ud800'.repeat(10_000) },
    { s: '\\'.repeat(30_000) },
    Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`k${i}`, i % 2 ? 'v'.repeat(8) : i])),
  ].filter((p) => Buffer.byteLength(JSON.stringify(p)) <= PROPS_MAX_BYTES);
}

/** The longest chains the schema takes, with long names, classes and attribute values full of separators. */
function worstElements(): Array<Array<Record<string, unknown>>> {
  const element = (i: number) => ({
    tag: 'div',
    id: `i${i}`,
    classes: Array.from({ length: 20 }, (_, k) => `c${k}`),
    nth_child: 1,
    text: i === 0 ? 'a'.repeat(200) : undefined,
    attributes: { href: `/${'/'.repeat(300)}`, 'data-pp-name': '\x1e'.repeat(100), role: ':'.repeat(50) },
  });
  const chains = [Array.from({ length: 50 }, (_, i) => element(i)), Array.from({ length: 50 }, () => ({ tag: 'a'.repeat(1000) }))];
  return chains.filter((c) => Buffer.byteLength(JSON.stringify(c)) <= ELEMENTS_MAX_BYTES);
}

const RULES: RuleConditions[] = [
  { base_event: 'pp.click', selector: `section ${'div '.repeat(10)}div`, url_pattern: '/*a*a*a*a*a*a*a*b', match_text: null, attributes: [] },
  { base_event: 'pp.click', selector: null, url_pattern: `${HOST}/pricing`, match_text: null, attributes: [{ name: 'href', op: 'contains', value: '//x' }] },
  { base_event: 'pp.click', selector: 'div > div > div div', url_pattern: '*/*/*/*/*/*/*:*x', match_text: null, attributes: [] },
  { base_event: 'pp.page_view', selector: null, url_pattern: '*%*%*%*%*%*%*%*.', match_text: null, attributes: [] },
];
const matchers = RULES.map(compileRule);

const CONTEXT = { projectId: 1, receivedAt: new Date('2026-11-27T12:00:00Z'), source: 'browser' as const, sdk: null, keyId: 'k' };

/** Checks, normalizes and matches one event as the ingest path does. */
function timeOne(item: Record<string, unknown>): void {
  const checked = checkEvent(item);
  if ('defect' in checked) throw new Error(`refused: ${checked.defect.message}`);
  const row = normalizeEvent(checked.event, CONTEXT, checked.text);
  const view = { row, pages: new Map<string, string | null>() };
  for (const match of matchers) match(view);
}

t.test('each transformation answers its worst case within the bound', async (t) => {
  // Processor time rather than the wall clock, which on a shared machine counts others' turns too.
  const timed = (name: string, run: () => unknown) => {
    const started = process.cpuUsage();
    run();
    const used = process.cpuUsage(started);
    const ms = (used.user + used.system) / 1000;
    if (ms >= BOUND_MS) t.fail(`${name}: ${ms.toFixed(1)} ms`);
    return ms;
  };
  const chains = worstElements();
  // The first event compiles the schema's checks: not the input's cost.
  timeOne({ event: 'pp.click', anonymous_id: 'a', url: HOST, elements: chains[0] });
  let worst = 0;
  for (const url of worstUrls()) {
    const label = `${JSON.stringify(url.slice(0, 24))}… (${url.length})`;
    worst = Math.max(
      worst,
      timed(`normalizePageUrl ${label}`, () => {
        const page = normalizePageUrl(url);
        if (page !== null) pathPartOf(page);
        if (page !== null) pagePath(page);
      }),
    );
    worst = Math.max(
      worst,
      timed(`pathOf ${label}`, () => pathOf(url)),
    );
    for (const event of ['pp.click', 'pp.page_view']) {
      worst = Math.max(
        worst,
        timed(`${event} at ${label}`, () => timeOne({ event, anonymous_id: 'a', url, referrer: url, elements: event === 'pp.click' ? chains[0] : undefined })),
      );
    }
  }
  for (const props of worstProps()) {
    const label = JSON.stringify(props).slice(0, 30);
    worst = Math.max(
      worst,
      timed(`parseRevenue ${label}`, () => parseRevenue(props.revenue)),
    );
    worst = Math.max(
      worst,
      timed(`jsonText ${label}`, () => jsonText(props)),
    );
    worst = Math.max(
      worst,
      timed(`event with props ${label}`, () => timeOne({ event: 'pp.click', anonymous_id: 'a', props, url: `${HOST}/${'/'.repeat(4000)}x` })),
    );
  }
  for (const elements of chains) {
    worst = Math.max(
      worst,
      timed('elementColumns', () => elementColumns('pp.click', elements)),
    );
    worst = Math.max(
      worst,
      timed('click with the chain', () => timeOne({ event: 'pp.click', anonymous_id: 'a', elements, url: `${HOST}/${'a'.repeat(4000)}` })),
    );
  }
  // The string functions on the longest string an event carries (a property value), past the URL
  // limit: linear ones take no longer, a quadratic one takes seconds.
  for (const ch of RUNS) {
    const run = ch.repeat(PROPS_MAX_BYTES);
    for (const text of [run, `${HOST}/${run}x`, `http://${run}:80`, `/${run}/`]) {
      const label = `${JSON.stringify(text.slice(0, 12))}… (${text.length})`;
      worst = Math.max(
        worst,
        timed(`normalizePageUrl ${label}`, () => normalizePageUrl(text)),
      );
      worst = Math.max(
        worst,
        timed(`pagePath and pathPartOf ${label}`, () => pathPartOf(pagePath(text))),
      );
      worst = Math.max(
        worst,
        timed(`pathOf ${label}`, () => pathOf(text)),
      );
      worst = Math.max(
        worst,
        timed(`parseRevenue ${label}`, () => parseRevenue(text)),
      );
      worst = Math.max(
        worst,
        timed(`jsonText ${label}`, () => jsonText({ [text]: text })),
      );
    }
  }
  for (const ch of RUNS) {
    worst = Math.max(
      worst,
      timed(`parseTracker ${JSON.stringify(ch)}`, () => parseTracker(`${ch.repeat(4000)}/${ch.repeat(4000)}`)),
    );
    worst = Math.max(
      worst,
      timed(`identity and times ${JSON.stringify(ch)}`, () =>
        checkEvent({ event: ch.repeat(200), anonymous_id: ch.repeat(200), user_id: ch.repeat(200), session_id: ch.repeat(200), ts: ch.repeat(64), uuid: ch.repeat(4000) }),
      ),
    );
  }
  t.ok(worst < BOUND_MS, `the slowest call took ${worst.toFixed(1)} ms`);
});

t.test('240 worst-case events with a browser token leave health answering', async (t) => {
  const server = await startTestServer(t);
  const tenant = await createTenant(server);
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  const p = tenant.project.id;
  for (const [i, rule] of RULES.entries()) {
    const res = await server.request('POST', `/api/v1/projects/${p}/labeled-events`, { token, body: { ...rule, event_name: `worst_${i}` } });
    t.equal(res.status, 201, `rule ${i} created`);
  }
  const key = createIngestKey(server, { id: p }, { type: 'browser', domains: ['example.com'] });
  const headers = { origin: HOST, 'x-pp-tracker': 'pp-browser/0.6.5' };
  const elements = Array.from({ length: 12 }, () => ({ tag: 'div', nth_child: 1 }));
  // Each URL another, so that no normalized page is reused; 60 events to a request keep each body under 1 MiB.
  const batch = (r: number) => Array.from({ length: 60 }, (_, i) => ({ event: 'pp.click', anonymous_id: `a${i}`, url: `${HOST}/${'/'.repeat(4000)}x${r * 60 + i}`, elements }));
  const watch = watchHealth(server);
  const answers = await Promise.all([0, 1, 2, 3].map((r) => server.request('POST', '/v1/track', { token: key.value, headers, body: { events: batch(r) } })));
  await ingestWriter(server.running.services).loaded();
  const health = await watch.stop();
  for (const res of answers) t.equal(res.status, 202, res.text.slice(0, 200));
  t.same(
    answers.map((a) => a.body.accepted),
    [60, 60, 60, 60],
  );
  const [stored] = await readTable(server, 'SELECT count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NULL', [p]);
  t.equal(stored!.n, 240, 'every event stored');
  t.same(health.failures, []);
  t.ok(health.polls > 0, `${health.polls} health checks`);
  t.ok(health.worstMs < 500, `every health check answered within 500 ms (worst ${health.worstMs.toFixed(0)} ms)`);
});

// The ingestion surface at its limits, with a browser token and a server key, into a project with
// wildcard labeled rules and saved path-cleaning rules (applied by a paths query afterwards).

import t, { type Test } from 'tap';
import { startLoadedServer, SITE, REQUEST_LIMIT_MS, type Answer, type LoadedServer } from './loadedServer.js';
import { assertHealthy, watchHealth } from '../support/healthWatch.js';

/** Room under the 1 MiB body limit for the envelope and the last event's rounding. */
const BATCH_BYTES = 1024 * 1024 - 4096;
const URL_MAX = 4096;
const PROPS_MAX_BYTES = 64 * 1024;
const ELEMENTS_MAX_BYTES = 64 * 1024;
const TRAITS_MAX_BYTES = 16 * 1024;
const REPLAY_MAX_BYTES = 512 * 1024;
const DEPTH = 16;

/** As many copies of `make(i)` as fit in one batch body, at most 500. */
function batch(make: (i: number) => Record<string, unknown>): unknown[] {
  const events: unknown[] = [];
  let bytes = 12;
  for (let i = 0; i < 500; i++) {
    const e = make(i);
    bytes += JSON.stringify(e).length + 1;
    if (bytes > BATCH_BYTES) break;
    events.push(e);
  }
  return events;
}

/** A URL of one repeated character, `length` long, distinct per event (no per-batch cache helps). */
function longUrl(i: number, char: string, length = URL_MAX): string {
  const head = `${SITE}/${i}`;
  return head + char.repeat(length - head.length);
}

/** Nested `depth` levels, each level with long keys, within `bytes` of JSON. */
function deepObject(bytes: number, depth = DEPTH - 1): Record<string, unknown> {
  const share = Math.floor(bytes / (depth + 1)) - 64;
  let node: Record<string, unknown> = { leaf: '%'.repeat(share) };
  for (let d = 1; d < depth; d++) node = { [`level_${d}_${'.'.repeat(20)}`]: node, [`text_${d}`]: '*'.repeat(share) };
  return node;
}

/** 50 elements, target first, each with long classes and attributes, within the elements limit. */
function longChain(): Array<Record<string, unknown>> {
  const each = Math.floor(ELEMENTS_MAX_BYTES / 50) - 200;
  return Array.from({ length: 50 }, (_, i) => ({
    tag: i === 0 ? 'button' : 'div',
    id: `el-${i}`,
    classes: ['cta', 'x'.repeat(Math.floor(each / 3))],
    text: 'é'.repeat(Math.floor(each / 6)),
    attributes: { href: '/'.repeat(Math.floor(each / 3)), 'data-pp-name': `n${i}` },
  }));
}

const person = (i: number) => ({ anonymous_id: `anon-${i}-${'a'.repeat(180)}`, user_id: `user-${i}-${'u'.repeat(180)}`, session_id: `s-${i}-${'s'.repeat(180)}` });

const trackCases: Array<{ name: string; events: () => unknown[] }> = [
  {
    name: '500 page views with referrers of one repeated character',
    events: () => batch((i) => ({ event: 'pp.page_view', url: `${SITE}/docs/${i}`, referrer: longUrl(i, 'a', 1900), anonymous_id: `a${i}` })),
  },
  { name: 'page views with 4 KB URLs of slashes', events: () => batch((i) => ({ event: 'pp.page_view', url: longUrl(i, '/'), ...person(i) })) },
  { name: 'page views with 4 KB URLs of a repeated letter', events: () => batch((i) => ({ event: 'pp.page_view', url: longUrl(i, 'a'), ...person(i) })) },
  { name: 'events with 64 KB props nested 16 levels', events: () => batch((i) => ({ event: 'signup', url: longUrl(i, '%', 1024), props: deepObject(PROPS_MAX_BYTES - 256), ...person(i) })) },
  { name: 'clicks with 50-element chains at the elements limit', events: () => batch((i) => ({ event: 'pp.click', url: longUrl(i, '.', 1024), elements: longChain(), ...person(i) })) },
];

async function watched(t: Test, server: LoadedServer, what: string, send: () => Promise<Answer[]>): Promise<void> {
  const watch = await watchHealth({ url: server.url, pid: server.pid });
  const answers = await send();
  const report = await watch.stop();
  for (const a of answers) {
    t.not(a.status, 0, `${what}: answered within ${REQUEST_LIMIT_MS / 1000} s (${Math.round(a.ms)} ms)`);
    t.ok(a.status > 0 && a.status < 500, `${what}: not a server error (${a.status} ${a.text.slice(0, 160)})`);
  }
  assertHealthy(t, report, what);
}

/** Wildcard labeled rules on page views and clicks, saved path-cleaning rules, replay collection on. */
async function prepareTransformations(server: LoadedServer): Promise<void> {
  const p = `/api/v1/projects/${server.projectId}`;
  const rules = [
    { base_event: 'pp.page_view', url_pattern: '/docs/*', event_name: 'docs_view' },
    { base_event: 'pp.page_view', url_pattern: '*/pricing*', event_name: 'pricing_view' },
    { base_event: 'pp.page_view', url_pattern: `${SITE}/*/settings`, event_name: 'settings_view' },
    { base_event: 'pp.click', selector: 'main div > button.cta', url_pattern: '/*', event_name: 'cta_click' },
  ];
  for (const body of rules) {
    const res = await server.send('POST', `${p}/labeled-events`, { body });
    if (res.status !== 201) throw new Error(`rule refused: ${res.status} ${res.text}`);
  }
  const cleaning = await server.send('PUT', `${p}/path-cleaning`, {
    body: {
      rules: [
        { pattern: '/users/\\d+', alias: '/users/:id' },
        { pattern: '/{2,}', alias: '/' },
        { pattern: '^/docs/.*', alias: '/docs' },
      ],
    },
  });
  if (cleaning.status !== 200) throw new Error(`path cleaning refused: ${cleaning.status} ${cleaning.text}`);
  const settings = await server.send('PATCH', `${p}/behavior/settings`, { body: { replay_enabled: true, replay_sample_rate: 1 } });
  if (settings.status !== 200) throw new Error(`settings refused: ${settings.status} ${settings.text}`);
}

t.test('the ingestion surface at its limits', async (t) => {
  const server = await startLoadedServer(t);
  await prepareTransformations(server);
  const keys = [
    { name: 'browser token', token: server.browserKey.value, headers: { origin: SITE } },
    { name: 'server key', token: server.serverKey.value, headers: {} as Record<string, string> },
  ];
  const small = replayEvents();
  const large = [{ type: 2, timestamp: 1, data: deepObject(REPLAY_MAX_BYTES - 4096) }];

  for (const c of trackCases) {
    const events = c.events();
    for (const k of keys) {
      await watched(t, server, `/v1/track, ${c.name} (${events.length}), ${k.name}`, async () => [await server.send('POST', '/v1/track', { token: k.token, headers: k.headers, body: { events } })]);
    }
  }

  const paths = await server.send('POST', `/api/v1/projects/${server.projectId}/queries/paths`, {
    body: {
      date_from: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      date_to: new Date().toISOString().slice(0, 10),
      selected_event: 'pp.page_view',
      direction: 'after',
      depth: 20,
      mode: 'actor',
    },
  });
  t.equal(paths.status, 200, `the paths query cleans the stored worst-case URLs (${paths.status} ${paths.text.slice(0, 160)})`);

  for (const k of keys) {
    await watched(t, server, `/v1/identify with 16 KiB traits nested 16 levels, ${k.name}`, () =>
      Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          server.send('POST', '/v1/identify', {
            token: k.token,
            headers: k.headers,
            body: { anonymous_id: person(i).anonymous_id, user_id: person(i).user_id, traits: deepObject(TRAITS_MAX_BYTES - 256) },
          }),
        ),
      ),
    );
    await watched(t, server, `/v1/alias with 200-character ids, ${k.name}`, () =>
      Promise.all(
        Array.from({ length: 4 }, (_, i) => server.send('POST', '/v1/alias', { token: k.token, headers: k.headers, body: { previous_id: `p${i}${'/'.repeat(198)}`, user_id: person(i).user_id } })),
      ),
    );
    await watched(t, server, `/v1/replay with ${small.length} small events and with one 512 KiB event, ${k.name}`, async () => [
      await server.send('POST', '/v1/replay', { token: k.token, headers: k.headers, body: { session_id: 's'.repeat(200), anonymous_id: 'a'.repeat(200), seq: 0, events: small } }),
      await server.send('POST', '/v1/replay', { token: k.token, headers: k.headers, body: { session_id: 's'.repeat(200), anonymous_id: 'a'.repeat(200), seq: 1, events: large } }),
    ]);
    await watched(t, server, `/v1/capture at its 64 KiB limit with a 50-element chain, ${k.name}`, async () => [
      await server.send('POST', '/v1/capture', { token: k.token, headers: k.headers, body: await maximalCapture(server) }),
    ]);
  }
});

/** As many of the smallest rrweb events as the replay limit holds (at most 20,000). */
function replayEvents(): unknown[] {
  const events: unknown[] = [];
  let bytes = 2;
  for (let i = 0; i < 20000; i++) {
    const e = { type: 3, timestamp: i, data: { source: 1 } };
    bytes += JSON.stringify(e).length + 1;
    if (bytes > REPLAY_MAX_BYTES - 1024) break;
    events.push(e);
  }
  return events;
}

/** A capture at the 64 KiB a capture may hold: selector and URL at their limits, a 50-element chain filling the rest. */
const CAPTURE_MAX_BYTES = 64 * 1024;

async function maximalCapture(server: LoadedServer): Promise<Record<string, unknown>> {
  const picker = await server.send('POST', `/api/v1/projects/${server.projectId}/labeled-events/picker-token`);
  const element = (text: number) => ({ tag: 'd'.repeat(128), id: '#'.repeat(256), classes: ['.'.repeat(256)], nth_child: 1_000_000, text: '*'.repeat(text) });
  const capture = {
    picker_token: picker.body?.token ?? 'x'.repeat(2048),
    nonce: picker.body?.nonce ?? 'n'.repeat(200),
    url: longUrl(0, '/'),
    selector: 'div > '.repeat(1366).slice(0, 8192),
    element: element(500),
    chain: [] as unknown[],
  };
  const room = CAPTURE_MAX_BYTES - 1024 - JSON.stringify(capture).length;
  const text = Math.min(500, Math.floor(room / 50) - JSON.stringify(element(0)).length - 1);
  capture.chain = Array.from({ length: 50 }, () => element(Math.max(0, text)));
  return capture;
}

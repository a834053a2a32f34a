// The demo data shows the product: loaded into a fresh project, every event is stored, its
// heatmaps place their clicks, rage and dead clicks appear where the demo site provokes them,
// and activation drivers, asked as the console asks by default and over every default behavior
// window, find drivers. Asked through the API, as a person with the console would.

import t, { type Test } from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { loadDemoData } from '../../server/demo/loadDemoData.js';
import { DEMO_DAYS } from '../../server/demo/demoEvents.js';
import { DEFAULT_WINDOWS } from '../../server/queries/activationDrivers/types.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const server = await startTestServer(t, { now: NOW });
const { owner, org, project } = await createTenant(server);
const loaded = await loadDemoData(server.running.services, project.id, owner.id);
const requestsLogged = server.logs.filter((l) => l.msg === 'request').length;
const token = await accessTokenFor(server, owner, org);

const daysBefore = (n: number) => new Date(NOW.getTime() - n * 86_400_000).toISOString().slice(0, 10);
const today = daysBefore(0);
const history = { date_from: daysBefore(DEMO_DAYS), date_to: today };
const SITE = 'https://demo.pp.local';

const get = (path: string, params: Record<string, string>) => server.request('GET', `/api/v1/projects/${project.id}/${path}?${new URLSearchParams(params)}`, { token });
const ask = (kind: string, body: unknown) => server.request('POST', `/api/v1/projects/${project.id}/queries/${kind}`, { token, body });

/** A 200, or the refusal's text when it is not. */
const answered = (t: Test, res: { status: number; text: string }) => t.equal(res.status, 200, res.status === 200 ? 'answered' : res.text);

interface Band {
  band: string;
  clicks: number;
  fixed_clicks: number;
  cells: Array<{ x: number; y: number; clicks: number }>;
}

t.test('every event the load counts is stored, and no request was logged for it', async (t) => {
  t.ok(loaded.events > 40_000 && loaded.events < 150_000, `a demo of a reasonable size (${loaded.events} events)`);
  const counted = await ask('segmentation', { event: 'any', metric: 'events', interval: 'month', ...history });
  answered(t, counted);
  t.equal(
    counted.body.series[0].points.reduce((n: number, p: { value: number }) => n + p.value, 0),
    loaded.events,
  );
  t.equal(requestsLogged, 0, 'loaded without a request, so without a request log line');
  const keys = await server.request('GET', `/api/v1/projects/${project.id}/keys`, { token });
  t.same(
    keys.body.items.map((k: { name: string; status: string }) => [k.name, k.status]),
    [['Demo data loader', 'revoked']],
    'the key the events carry is revoked',
  );
});

t.test('the home page heatmap places its clicks in every width band', async (t) => {
  const res = await get('pages/behavior', { url: `${SITE}/`, ...history });
  answered(t, res);
  const { heatmap, summary } = res.body;
  t.equal(heatmap.unplaced, 0, 'no click lacks the window width');
  const bands = heatmap.bands as Band[];
  for (const band of bands) t.ok(band.cells.length > 0, `${band.band}: clicks placed on the page`);
  const placed = bands.reduce((n, b) => n + b.cells.reduce((m, c) => m + c.clicks, 0), 0);
  const fixed = bands.reduce((n, b) => n + b.fixed_clicks, 0);
  t.equal(placed + fixed, summary.clicks, 'every click is placed or on the sticky header');
  t.ok(placed > fixed, 'most clicks are on the page itself');
  const hero = res.body.items.find((e: { selector: string }) => e.selector === 'button#hero-cta');
  t.ok(hero?.cells.length > 1, 'clicks on the call to action are placed inside it');
});

t.test('rage and dead clicks where the demo site provokes them', async (t) => {
  const pricing = await get('pages/behavior', { url: `${SITE}/pricing`, ...history });
  answered(t, pricing);
  t.ok(pricing.body.summary.rage_clicks > 0, `rage clicks on the pricing page (${pricing.body.summary.rage_clicks})`);
  t.ok(pricing.body.summary.dead_clicks > 0, `dead clicks on the pricing page (${pricing.body.summary.dead_clicks})`);
  const toggle = pricing.body.items.find((e: { selector: string }) => e.selector === 'button#compare-plans');
  t.ok(toggle?.rage_clicks > 0 && toggle.clicks >= 3 * toggle.rage_clicks, 'the plan comparison toggle, each burst of at least three clicks');
  t.equal(pricing.body.heatmap.unplaced, 0);

  const features = await get('pages/behavior', { url: `${SITE}/features`, ...history });
  answered(t, features);
  t.ok(features.body.summary.dead_clicks > 0, `dead clicks on the features page (${features.body.summary.dead_clicks})`);
  t.ok(features.body.summary.dead_clicks < features.body.summary.clicks, 'every dead click is also a click');
});

t.test('activation drivers find drivers over the console default and over every default window', async (t) => {
  // The console's defaults: the latest 60 days, retained if active between day 7 and day 28.
  const byDefault = await ask('activation-drivers', { date_from: daysBefore(59), date_to: today, anchor_event: 'signup', outcome: { event: 'report_viewed', from_day: 7, to_day: 28 } });
  answered(t, byDefault);
  t.ok(byDefault.body.eligible >= 50, `people whose outcome window has closed (${byDefault.body.eligible})`);
  t.ok(byDefault.body.drivers.length > 0, 'drivers found');

  const longest = await ask('activation-drivers', { ...history, anchor_event: 'signup', outcome: { event: 'report_viewed', from_day: 30, to_day: 60 } });
  answered(t, longest);
  t.same(longest.body.windows_days, DEFAULT_WINDOWS, 'no window trimmed');
  t.ok(longest.body.drivers.length > 0, 'drivers found');
  const invite = longest.body.drivers.find((d: { event: string }) => d.event === 'invite_sent');
  t.equal(invite?.direction, 'positive', 'inviting a colleague early goes with staying');
});

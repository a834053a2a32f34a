// The element picker end to end, in chromium against the real server and the real tracker: an
// analyst starts the picker from the rule editor, picks the Start trial button on the site (the
// page never sees that click), saves the rule the capture filled in, and visitors' clicks on the
// site become start_trial events that the funnel API and the console's funnel page count alike.

import t from 'tap';
import type { Page } from 'playwright-core';
import { TRACKER_VERSION } from '../../sdk/browser/version.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { askQuery, checkClean, signedInConsole } from '../console/consoleKit.js';
import { startStaticServer } from '../sdk/support/staticServer.js';
import { PAGE_HOST } from '../sdk/support/trackedSite.js';
import type { Manifest } from '../sdk/support/trackerBuild.js';
import { openTrackedPage, pageHtml, trackerTag } from '../sdk/support/trackerPage.js';
import { launchChromium } from '../support/chromium.js';
import { eventually } from '../support/eventually.js';
import { accessTokenFor, addMember, createTenant, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { startTestServer } from '../support/testServer.js';

const STEP_TIMEOUT_MS = 30_000;
const VERSIONED = `/v1/sdk/browser/${TRACKER_VERSION}`;

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, org, project } = await createTenant(server, { timezone: 'UTC' });
const ownerToken = await accessTokenFor(server, owner, org);
// Clicks are collected, with their texts and data-pp-* attributes (standard mode), as a site
// that wants labeled clicks sets it up.
const settings = await server.request('PATCH', `/api/v1/projects/${project.id}/behavior/settings`, { token: ownerToken, body: { autocapture_clicks: true, privacy_mode: 'standard' } });
if (settings.status !== 200) throw new Error(`behavior settings: ${settings.status} ${settings.text}`);
const analyst = await addMember(server, org, 'analyst');
const analystToken = await accessTokenFor(server, analyst, org);
const key = createIngestKey(server, project, { type: 'browser', domains: [PAGE_HOST] });
const manifest = (await server.request<Manifest>('GET', `${VERSIONED}/manifest.json`)).body;

// The site: a pricing page with the documented tag of the pinned tracker. Its own handlers record
// every click they see and change the DOM, so a visitor's click is never a dead click.
const site = await startStaticServer();
t.teardown(() => site.close());
const head = trackerTag({ src: `${server.url}${VERSIONED}/tracker.js`, integrity: manifest.assets.core.integrity, key: key.value, host: server.url, debug: true });
const body = `<main class="pricing">
  <h1>Pricing</h1>
  <button id="buy" class="btn primary" data-pp-name="buy" style="padding: 20px 40px"><span>Start trial</span></button>
  <button id="sales" class="btn" data-pp-name="sales">Talk to sales</button>
</main>
<script>
  window.pageClicks = [];
  for (const b of document.querySelectorAll('button')) b.addEventListener('click', () => { pageClicks.push(b.id); b.dataset.clicks = String(pageClicks.length); });
</script>`;
const pricingUrl = site.put('/site/pricing.html', pageHtml({ title: 'Pricing', head, body }));

const browser = await launchChromium();
t.teardown(() => browser.close());
const tab = await signedInConsole(t, browser, server, analyst.email, TEST_PASSWORD);
const { page } = tab;
const rulesBase = `/projects/${project.id}/labeled-events`;

/** GET …/labeled-events{path} as the analyst; the answer, or an error naming the status. */
async function rulesApi(path: string): Promise<any> {
  const res = await server.request('GET', `/api/v1/projects/${project.id}/labeled-events${path}`, { token: analystToken });
  if (res.status !== 200) throw new Error(`labeled-events${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** The project's stored events of one name, through the events list, newest received first. */
async function eventsNamed(name: string): Promise<any[]> {
  const res = await server.request('GET', `/api/v1/projects/${project.id}/events?event=${encodeURIComponent(name)}&limit=500`, { token: analystToken });
  if (res.status !== 200) throw new Error(`events: ${res.status} ${res.text}`);
  return res.body.items;
}

/** The count the editor shows once its preview answered. */
const shownCount = (p: Page) =>
  eventually(
    'the preview',
    async () => ({ state: await p.getByTestId('preview').getAttribute('data-state'), count: await p.getByTestId('preview').getAttribute('data-count') }),
    (s) => s.state === 'ready',
  ).then((s) => Number(s.count));

const pageClicks = (p: Page) => p.evaluate('window.pageClicks') as Promise<string[]>;

// Filled in as the steps go: the picking session and what it captured, then the saved rule.
let pickerToken = '';
let captured: any;
let ruleId = 0;

t.test('the picker opens the site, and a click on the button is captured instead of reaching the page', { timeout: STEP_TIMEOUT_MS }, async (t) => {
  await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Labeled events' }).click();
  await page.locator('.page-header').getByRole('link', { name: 'New rule' }).click();
  await page.getByRole('heading', { name: 'New labeled event' }).waitFor();
  t.equal(new URL(page.url()).pathname, `${rulesBase}/new`, 'the editor of a new rule');

  await page.getByLabel("Your site's address").fill(pricingUrl);
  const opened = tab.context.waitForEvent('page');
  await page.getByRole('button', { name: 'Pick an element' }).click();
  const siteTab = await opened;
  t.teardown(() => siteTab.close());
  await siteTab.waitForURL(/pp_picker_token=/);
  const address = new URL(siteTab.url());
  t.equal(address.origin + address.pathname, pricingUrl, 'the page entered, in a new tab');
  pickerToken = address.searchParams.get('pp_picker_token') ?? '';
  t.ok(pickerToken && address.searchParams.get('pp_picker_nonce'), 'with the token and its nonce');
  await page.getByTestId('picker-waiting').waitFor();

  // The tracker loads its picker module, which says so in a banner of its own.
  await siteTab.getByText('pp: click an element to capture it').waitFor();
  await siteTab.hover('#buy');
  // The pointer rests on the button's label: the highlight is drawn around the element under it.
  const boxes = await eventually(
    'the highlight',
    () =>
      siteTab.evaluate(`(() => {
        const box = [...document.documentElement.children].find((e) => e.tagName === 'DIV' && e.style.borderWidth === '2px' && e.style.display === 'block');
        const label = document.querySelector('#buy span').getBoundingClientRect();
        return box ? [[box.style.left, box.style.top, box.style.width, box.style.height].map(parseFloat), [label.left, label.top, label.width, label.height]] : null;
      })()`) as Promise<[number[], number[]] | null>,
    (v) => v !== null,
  );
  const [drawnBox, label] = boxes!;
  t.ok(
    drawnBox.every((v, i) => Math.abs(v - label[i]!) < 0.5),
    `the highlight (${drawnBox}) covers the label (${label})`,
  );
  await siteTab.click('#buy');
  await siteTab.getByText('pp: element captured, you can return to pp').waitFor();
  t.same(await pageClicks(siteTab), [], "the page's own click handler never ran");

  // The editor asks every 1.5 s; the capture answers the same token.
  await page.getByTestId('picked-element').waitFor({ timeout: 15_000 });
  captured = await rulesApi(`/picker/captures?token=${encodeURIComponent(pickerToken)}`);
  t.match(
    captured,
    { ready: true, url: pricingUrl, url_pattern: pricingUrl, text: 'Start trial', element: { tag: 'button', id: 'buy' } },
    'the button its label belongs to, on the page without the picker parameters',
  );
  // The label has no mark of its own: it is named under the button's data-pp-name.
  t.equal(captured.selector, 'button[data-pp-name=buy]', 'a short selector for it, which also matches clicks on the button around its label');
  t.equal(await page.getByLabel('Selector', { exact: true }).inputValue(), captured.selector, 'the selector field is the capture’s');
  t.equal(await page.getByLabel('URL pattern').inputValue(), captured.url_pattern, 'the URL pattern too');
  t.equal(await page.getByLabel('Element text').inputValue(), captured.text, 'and the text');
  t.equal(await page.getByTestId('picked-selector').textContent(), captured.selector, 'shown for confirmation');
  checkClean(t, tab);
});

t.test('the filled-in rule is saved, after the confirmation a rule matching nothing yet asks for', { timeout: STEP_TIMEOUT_MS }, async (t) => {
  await page.getByLabel('Event name', { exact: true }).fill('start_trial');
  // The picking click was kept from autocapture too: nothing matches the rule yet.
  t.equal(
    await eventually(
      'a zero count',
      () => shownCount(page),
      (n) => n === 0,
    ),
    0,
    'no matching click in the last 30 days',
  );
  await page.getByRole('button', { name: 'Create the rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'This rule matches no event of the last 30 days. Save anyway?' });
  await dialog.getByRole('button', { name: 'Save anyway' }).click();
  await page.waitForURL((u) => u.pathname === rulesBase);

  const rule = (await rulesApi('')).items.find((r: any) => r.event_name === 'start_trial');
  t.match(
    rule,
    { base_event: 'pp.click', selector: captured.selector, url_pattern: captured.url_pattern, match_text: captured.text, attributes: [], state: 'active' },
    'stored as the capture filled it in',
  );
  ruleId = rule.id;
  const row = page.locator('tr[data-event-name="start_trial"]');
  await eventually(
    'the rule derived in the list',
    () => row.locator('[data-testid=materialization]').getAttribute('data-state'),
    (s) => s === 'succeeded',
    20_000,
  );
  t.equal(await row.locator('[data-testid=rule-state]').getAttribute('data-state'), 'active', 'listed as active');
  checkClean(t, tab);
});

t.test('visitors’ clicks on the button become start_trial events', { timeout: STEP_TIMEOUT_MS }, async (t) => {
  // Two visitors, each in a browser context of their own (a new anonymous id), on the page
  // without picker parameters: one clicks Start trial on its label and then Talk to sales, the
  // other Start trial in its padding, beside the label (a click on the button itself).
  for (const [i, clicks] of [['#buy', '#sales'], ['#buy@padding']].entries()) {
    const visitor = await openTrackedPage(browser, pricingUrl);
    t.teardown(() => visitor.close());
    // Debug mode logs the configuration as it is applied; autocapture starts in the same task.
    await visitor.consoleLine('[pp] configuration');
    for (const target of clicks) {
      if (target.endsWith('@padding')) await visitor.page.click('#buy', { position: { x: 4, y: 4 } });
      else await visitor.page.click(target);
    }
    t.same(
      await pageClicks(visitor.page),
      clicks.map((c) => c.slice(1).replace('@padding', '')),
      `visitor ${i + 1}: without the picker the page sees its clicks`,
    );
  }

  const trials = await eventually(
    'two start_trial events',
    () => eventsNamed('start_trial'),
    (es) => es.length >= 2,
  );
  const clicks = await eventually(
    'three clicks',
    () => eventsNamed('pp.click'),
    (es) => es.length >= 3,
  );
  t.equal(trials.length, 2, 'one per click on the button, on its label or beside it');
  const targets = await server.running.services.events.read(`SELECT json_extract_string(elements, '$[0].tag') AS tag FROM events WHERE project_id = $1 AND event = 'pp.click' ORDER BY tag`, [
    project.id,
  ]);
  t.same(
    targets.map((r) => r.tag),
    ['button', 'button', 'span'],
    'one click landed on the label, two on the buttons themselves',
  );
  t.equal(clicks.length, 3, 'the two on the button and the one on the other button; the picking click is not one');
  t.same(
    trials.map((e) => e.source),
    ['system', 'system'],
    'derived by the server',
  );
  const clickers = new Set(clicks.map((c) => c.anonymous_id));
  t.equal(clickers.size, 2, 'two visitors clicked');
  t.same(trials.map((e) => e.anonymous_id).sort(), [...clickers].sort(), 'each start_trial carries its click’s visitor');
  t.ok(
    trials.every((e) => e.url === pricingUrl),
    'and its page',
  );

  const views = await eventsNamed('pp.page_view');
  t.equal(views.length, 3, 'the picking tab and the two visitors');
  t.ok(
    views.every((e) => e.url === pricingUrl),
    'no page view keeps the picker parameters in its URL',
  );

  const rule = await rulesApi(`/${ruleId}`);
  t.match(rule, { state: 'active', materialization: { state: 'succeeded' } }, 'the rule stays active, its derivation done');
});

t.test('start_trial is a funnel step: the API and the console’s funnel page give the same counts', { timeout: STEP_TIMEOUT_MS }, async (t) => {
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const expected = await askQuery(server, analystToken, project.id, 'funnel', { steps: [{ event: 'pp.page_view' }, { event: 'start_trial' }], date_from: yesterday, date_to: today });
  const counts = expected.steps.map((s: { count: number }) => s.count);
  // Step 1: the picking tab's visitor and the two visitors viewed the page.
  // Step 2: the two visitors clicked Start trial; the picking click labeled nothing.
  t.same(counts, [3, 2], 'three people viewed the page, two started a trial');

  await page.goto(`/projects/${project.id}/insights/funnel?steps=pp.page_view~pp.click&from=${yesterday}&to=${today}`);
  await page.getByTestId('funnel-table').waitFor();
  await page.getByLabel('Step 2', { exact: true }).selectOption('start_trial', { timeout: 10_000 });
  await eventually(
    'the step in the URL',
    async () => page.url(),
    (u) => u.includes('steps=pp.page_view~start_trial'),
  );
  await page.getByTestId('funnel-table').getByText('2. start_trial').waitFor();
  const drawn = await page
    .getByTestId('funnel-table')
    .locator('[data-col=count]')
    .evaluateAll((cells) => cells.map((c) => Number((c.textContent ?? '').replace(/[^\d.-]/g, ''))));
  t.same(drawn, counts, 'the page shows the API’s counts');
  checkClean(t, tab);
});

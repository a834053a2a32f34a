// What a project collects, on the keys page in chromium: a new project says it collects page views
// only, in strict privacy; an owner switches clicks on with the mouse and scroll depth with the
// keyboard, and the settings API and the tracker's public configuration follow; the query-string
// allow-list is saved (a bad name is named beside the field) and an event's URL keeps only what it
// allows; storing client addresses is switched on and off, and events follow; a viewer reads the
// same facts without switches.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant, TEST_PASSWORD } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { launchChromium } from '../support/chromium.js';
import { ROOMY_LIMITS } from '../auth/authTestKit.js';
import { eventually } from '../support/eventually.js';
import { checkAccessible, checkClean, openFromNavigation, signedInConsole, tabTo } from './consoleKit.js';

const server = await startTestServer(t, { settings: ROOMY_LIMITS, now: new Date() });
const { owner, org, project } = await createTenant(server);
const token = await accessTokenFor(server, owner, org);
const browserKey = createIngestKey(server, project, { type: 'browser', domains: ['shop.example'] });
const browser = await launchChromium();
t.teardown(() => browser.close());

const settings = async () => (await server.request('GET', `/api/v1/projects/${project.id}/behavior/settings`, { token })).body;
const publicConfig = async () => (await server.request('GET', `/v1/config/${browserKey.prefix}`)).body;

t.test('an owner switches what the project collects from the keys page', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Keys and tracker');
  const section = page.getByRole('region', { name: 'What this project collects' });
  await section.getByTestId('collection-summary').waitFor();
  t.match(await section.getByTestId('collection-summary').textContent(), /Page views, always.*Nothing else: every autocapture kind is off\. Privacy mode strict/);
  t.match(await section.getByTestId('query-rule').textContent(), /stripped when events arrive, except utm_source, .*msclkid\.$/);
  t.match(await section.getByText(/^Unlocks click heatmaps/).textContent(), /labeled-event rules on clicks/, 'what clicks unlock');
  t.match(await section.getByText(/^Unlocks form analytics/).textContent(), /never the values typed/, 'what forms unlock');
  t.same(await publicConfig(), { privacy_mode: 'strict', collect: [] });
  await checkAccessible(t, page, 'keys page, collection');

  // Clicks with the mouse.
  const clicks = section.getByRole('switch', { name: 'Clicks' });
  t.equal(await clicks.isChecked(), false);
  await clicks.click();
  await section.getByRole('status').getByText('Saved. Clicks switched on.').waitFor();
  t.equal((await settings()).autocapture_clicks, true, 'the API has it');
  t.same(await publicConfig(), { privacy_mode: 'strict', collect: ['clicks'] }, 'and the tracker is told');

  // Scroll depth with the keyboard: Tab from Clicks, Space.
  const scroll = section.getByRole('switch', { name: 'Scroll depth' });
  await tabTo(page, scroll);
  await page.keyboard.press('Space');
  await section.getByRole('status').getByText('Saved. Scroll depth switched on.').waitFor();
  t.equal(await scroll.isChecked(), true);
  t.match(await settings(), { autocapture_clicks: true, autocapture_scroll: true, autocapture_forms: false });
  t.same(await publicConfig(), { privacy_mode: 'strict', collect: ['clicks', 'scroll'] });
  t.match(await section.getByTestId('collection-summary').textContent(), /Also: clicks, scroll depth\./);

  // And off again with the mouse.
  await clicks.click();
  await section.getByRole('status').getByText('Saved. Clicks switched off.').waitFor();
  t.same(await publicConfig(), { privacy_mode: 'strict', collect: ['scroll'] });

  await section.getByLabel('Privacy mode').selectOption('standard');
  await section.getByRole('status').getByText('Saved. Privacy mode set to standard.').waitFor();
  t.same(await publicConfig(), { privacy_mode: 'standard', collect: ['scroll'] });
  checkClean(t, tab);
});

t.test('the query-string allow-list: a bad name refused beside the field, a good list kept in stored URLs', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Keys and tracker');
  const section = page.getByRole('region', { name: 'What this project collects' });
  const field = section.getByLabel('Also keep these parameters');
  await field.fill('page, page=2');
  await section.getByRole('button', { name: 'Keep these parameters' }).click();
  const problem = section.locator('.problem');
  await problem.waitFor();
  t.equal(await problem.textContent(), 'url_query_allowlist[1] "page=2" must be a parameter name, without "="', "the server's message beside the field");
  t.same((await settings()).url_query_allowlist, [], 'nothing saved');

  await field.fill('page, q');
  await field.press('Enter');
  await section.getByRole('status').getByText('Saved. Allowed parameters saved.').waitFor();
  t.same((await settings()).url_query_allowlist, ['page', 'q']);
  t.match(await section.getByTestId('query-rule').textContent(), /msclkid and page, q\.$/);

  const sent = await ingestEvents(server, createIngestKey(server, project), [
    { event: 'pp.page_view', anonymous_id: 'v', url: 'https://shop.example/search?q=shoes&password=hunter2&page=2&utm_source=mail' },
  ]);
  t.equal(sent.status, 202);
  const [row] = await readTable(server, `SELECT url FROM events WHERE project_id = $1 AND anonymous_id = 'v'`, [project.id]);
  t.equal(row!.url, 'https://shop.example/search?q=shoes&page=2&utm_source=mail', 'the password is not stored');

  await section.getByRole('switch', { name: 'Keep full query strings' }).click();
  await section.getByRole('status').getByText('Saved. Full query strings are kept.').waitFor();
  t.equal((await settings()).url_query_strip, false);
  t.equal(await section.getByTestId('query-rule').textContent(), 'Query strings of page and referrer URLs are stored whole.');
  await section.getByRole('switch', { name: 'Keep full query strings' }).click();
  await eventually('stripping again', settings, (s) => s.url_query_strip === true);
  checkClean(t, tab);
});

t.test('client addresses: off by default, stored as props.$ip once switched on, and not after it is off again', async (t) => {
  const tab = await signedInConsole(t, browser, server, owner.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Keys and tracker');
  const section = page.getByRole('region', { name: 'What this project collects' });
  const addresses = section.getByRole('switch', { name: 'Client addresses' });
  await addresses.waitFor();
  t.equal(await addresses.isChecked(), false, 'off by default');
  t.equal((await settings()).store_client_address, false);
  const serverKey = createIngestKey(server, project);
  const send = async (who: string) => {
    const sent = await ingestEvents(server, serverKey, [{ event: 'pp.page_view', anonymous_id: who, url: 'https://shop.example/', props: { $ip: '203.0.113.9' } }]);
    t.equal(sent.status, 202);
    const [row] = await readTable(server, `SELECT json_extract_string(props, '$."$ip"') AS ip FROM events WHERE project_id = $1 AND anonymous_id = $2`, [project.id, who]);
    return row!.ip;
  };
  t.equal(await send('before'), null, 'not stored while off');
  await addresses.click();
  await section.getByRole('status').getByText('Saved. Client addresses switched on.').waitFor();
  t.equal((await settings()).store_client_address, true, 'the API has it');
  t.same((await publicConfig()).collect, ['scroll'], 'the tracker is not told: it changes nothing it collects');
  t.equal(await send('during'), '203.0.113.9', 'stored while on');
  await addresses.click();
  await section.getByRole('status').getByText('Saved. Client addresses switched off.').waitFor();
  t.equal(await send('after'), null, 'not stored once off');
  checkClean(t, tab);
});

t.test('a viewer reads what is collected, without switches', async (t) => {
  const viewer = await addMember(server, org, 'viewer');
  const tab = await signedInConsole(t, browser, server, viewer.email, TEST_PASSWORD);
  const { page } = tab;
  await openFromNavigation(page, 'Keys and tracker');
  const section = page.getByRole('region', { name: 'What this project collects' });
  await section.getByTestId('collection-summary').waitFor();
  t.match(await section.getByTestId('collection-summary').textContent(), /Also: scroll depth\. Privacy mode standard/);
  t.match(await section.getByRole('listitem').filter({ hasText: 'Scroll depth' }).textContent(), /^Scroll depth: on — unlocks how far each page is read/);
  t.match(await section.getByRole('listitem').filter({ hasText: 'Clicks' }).textContent(), /^Clicks: off/);
  t.equal(await section.getByRole('switch').count(), 0, 'no switch');
  t.equal(await section.getByLabel('Privacy mode').count(), 0, 'no privacy choice');
  t.equal(await section.getByLabel('Also keep these parameters').count(), 0, 'no allow-list field');
  t.match(await section.getByTestId('query-rule').textContent(), /and page, q\.$/);
  await checkAccessible(t, page, 'keys page, collection, viewer');
  checkClean(t, tab);
});

// Imports of files written the way other products write them: PostHog's batch export (JSON lines
// and CSV), Amplitude's zipped export, and CSV through a column mapping. Awkward rows on purpose:
// unicode, line feeds and commas inside quoted CSV fields, properties as JSON text, numbers as
// strings and ids as numbers, missing fields, and the same event in two files. Each bad record is
// reported with its line; the rest is stored; importing again stores nothing twice.

import t from 'tap';
import { gzipSync } from 'node:zlib';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { readTable } from '../support/ingest.js';
import { eventsOf, importsPath, jobEnded, upload } from './transferSupport.js';

const U = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

t.test('imports', async (t) => {
  const server = await startTestServer(t);
  const { owner, org, project } = await createTenant(server);
  const token = await accessTokenFor(server, owner, org);
  const analyst = await addMember(server, org, 'analyst');
  const analystToken = await accessTokenFor(server, analyst, org);
  const stranger = await createTenant(server);
  const strangerToken = await accessTokenFor(server, stranger.owner, stranger.org);

  t.test('who may import, and bad requests', async (t) => {
    const path = `${importsPath(project.id)}?format=posthog`;
    const raw = Buffer.from('{}\n');
    const headers = { 'content-type': 'application/octet-stream' };
    t.equal((await server.request('POST', path, { raw, headers })).status, 401);
    const badFormat = await server.request('POST', `${importsPath(project.id)}?format=mixpanel`, { token, raw, headers });
    t.equal(badFormat.status, 422);
    t.equal(badFormat.body.error.code, 'validation_failed');
    const mapOutsideCsv = await server.request('POST', `${path}&map=a%3Devent`, { token, raw, headers });
    t.equal(mapOutsideCsv.status, 422);
    t.match(mapOutsideCsv.body.error.message, /csv format only/);
    const badMap = await server.request('POST', `${importsPath(project.id)}?format=csv&map=a%3Dnowhere`, { token, raw, headers });
    t.equal(badMap.status, 422);
    t.match(badMap.body.error.message, /nowhere is not a field/);
    const empty = await server.request('POST', path, { token, raw: Buffer.alloc(0), headers });
    t.equal(empty.status, 422);
    t.equal((await server.request('POST', path, { token: analystToken, raw, headers })).status, 403);
    t.equal((await server.request('POST', path, { token: strangerToken, raw, headers })).status, 404);
    t.equal((await server.request('GET', `${importsPath(project.id)}/999999`, { token })).status, 404);
  });

  t.test("PostHog's batch export, JSON lines then CSV", async (t) => {
    const jsonl = [
      // A browser page view: $device_id is the anonymous id; the URL keeps only campaign parameters.
      JSON.stringify({
        uuid: U(1),
        event: '$pageview',
        distinct_id: 'anon-1',
        team_id: 2,
        timestamp: '2024-01-15 10:23:45.123000',
        created_at: '2024-01-15 10:23:46.000000',
        elements_chain: '',
        person_id: 'p-1',
        properties: { $current_url: 'https://shop.example/p?utm_source=news&secret=1', $device_id: 'anon-1', title: 'Café ☕' },
      }),
      // Properties as JSON text, the user id a number, revenue a numeric string.
      JSON.stringify({ uuid: U(2), event: 'purchase', distinct_id: 42, timestamp: '2024-01-15T10:30:00Z', properties: JSON.stringify({ revenue: '12.50', $device_id: 'anon-1' }) }),
      '{"uuid": "not json',
      JSON.stringify({ uuid: U(4), distinct_id: 'x', timestamp: '2024-01-15 11:00:00', properties: {} }),
      JSON.stringify({ uuid: U(5), event: '$identify', distinct_id: 'user-9', timestamp: '2024-01-15 11:00:00', properties: { $anon_distinct_id: 'anon-9' } }),
      // The first line again (a re-sent event).
      JSON.stringify({ uuid: U(1), event: '$pageview', distinct_id: 'anon-1', timestamp: '2024-01-15 10:23:45.123000', properties: {} }),
      // No uuid: one is derived from the content.
      JSON.stringify({ event: 'signup', distinct_id: 'user-7', timestamp: '2024-01-16 07:59:00', properties: { plan: 'pro' } }),
      '',
    ].join('\n');
    const job = await upload(server, token, project.id, jsonl, 'posthog', { name: 'events.jsonl' });
    t.ok(['queued', 'running'].includes(job.state));
    const done = await jobEnded(server, token, `${importsPath(project.id)}/${job.id}`);
    t.equal(done.state, 'succeeded');
    t.match(done, { files: ['events.jsonl'], lines: 7, stored: 3, duplicates: 1, rejected: 2 });
    t.same(done.rejections, [
      { file: 'events.jsonl', line: 3, reason: 'the line is not valid JSON' },
      { file: 'events.jsonl', line: 4, reason: 'event name is required' },
    ]);
    const rows = await eventsOf(server, project.id);
    t.match(rows, [
      {
        uuid: U(1),
        event: 'pp.page_view',
        ts: '2024-01-15T10:23:45.123Z',
        distinct_id: 'anon-1',
        anonymous_id: 'anon-1',
        user_id: null,
        source: 'import',
        url: 'https://shop.example/p?utm_source=news',
        path: '/p',
      },
      { uuid: U(2), event: 'purchase', ts: '2024-01-15T10:30:00.000Z', distinct_id: '42', anonymous_id: 'anon-1', user_id: '42', revenue: 12.5 },
      { event: 'signup', ts: '2024-01-16T07:59:00.000Z', distinct_id: 'user-7', props: '{"plan":"pro"}' },
    ]);
    // With the fields web analytics derives from the page URL, as for events sent live.
    t.same(JSON.parse(rows[0]!.props), { title: 'Café ☕', $utm_source: 'news', $channel: 'referral' });
    // The $identify and the device seen with the user both link.
    const links = await readTable(server, 'SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1 ORDER BY distinct_id', [project.id]);
    t.same(links, [
      { distinct_id: 'anon-1', actor_id: '42' },
      { distinct_id: 'anon-9', actor_id: 'user-9' },
    ]);

    const csv = [
      'uuid,event,properties,distinct_id,timestamp,properties.comment',
      `${U(3)},checkout,"{""plan"":""pro, yearly"",""n"":""3""}",user-7,2024-01-16 08:00:00.000000,"line one`,
      'line two, with a comma"',
      // Stored from the JSON lines already.
      `${U(2)},purchase,"{}",42,2024-01-15 10:30:00,`,
      `${U(6)},注文,"{}",,2024-01-16 09:00:00,`,
      `${U(7)},注文,"{}",user-8,2024-01-16 09:00:00,"say ""hi"""`,
    ].join('\r\n');
    const second = await jobEnded(server, token, `${importsPath(project.id)}/${(await upload(server, token, project.id, csv, 'posthog', { name: 'events.csv' })).id}`);
    t.match(second, { state: 'succeeded', lines: 4, stored: 2, duplicates: 1, rejected: 1 });
    t.same(second.rejections, [{ file: 'events.csv', line: 5, reason: 'distinct_id is required' }]);
    const after = await eventsOf(server, project.id);
    t.equal(after.length, 5);
    t.same(JSON.parse(after[3]!.props), { plan: 'pro, yearly', n: '3', comment: 'line one\r\nline two, with a comma' });
    t.match(after[4], { event: '注文', user_id: 'user-8', props: '{"comment":"say \\"hi\\""}' });

    // The same file again: every event is there already.
    const again = await jobEnded(server, token, `${importsPath(project.id)}/${(await upload(server, token, project.id, jsonl, 'posthog')).id}`);
    t.match(again, { state: 'succeeded', stored: 0, duplicates: 4, rejected: 2 });
    t.equal((await eventsOf(server, project.id)).length, 5);
    const list = await server.request('GET', importsPath(project.id), { token });
    t.same(
      list.body.items.map((j: any) => j.id),
      [again.id, second.id, done.id],
    );
  });

  t.test("Amplitude's export: a zip of gzipped JSON lines", async (t) => {
    const target = await createTenant(server);
    const ownerToken = await accessTokenFor(server, target.owner, target.org);
    const line = (o: object) => JSON.stringify(o);
    const hour10 = [
      line({
        event_type: 'Song Played',
        user_id: 'u1',
        device_id: 'd1',
        event_time: '2024-01-15 10:00:00.000000',
        event_properties: { title: 'Ünïcödé, "live"', duration: '215' },
        user_properties: { plan: 'free' },
        insert_id: 'ins-1',
        uuid: U(11),
        session_id: 1705312800000,
        platform: 'Web',
        country: 'Germany',
        amplitude_id: 987,
      }),
      line({
        event_type: '[Amplitude] Page Viewed',
        device_id: 'd2',
        event_time: '2024-01-15 10:05:00.000000',
        event_properties: { '[Amplitude] Page URL': 'https://shop.example/pricing' },
        insert_id: 'ins-2',
        session_id: -1,
      }),
      line({ user_id: 'u1', event_time: '2024-01-15 10:06:00.000000', insert_id: 'ins-3' }),
    ].join('\n');
    const hour11 = [
      // The first event again, by its insert_id only (no uuid): the same derived uuid is not the
      // stored one, so it is matched by uuid when present and by insert_id otherwise.
      line({ event_type: 'Purchase', user_id: 'u1', event_time: '2024-01-15 11:00:00.000000', revenue: 9.99, insert_id: 'ins-4', user_properties: { plan: 'pro' } }),
      line({ event_type: 'Purchase', user_id: 'u1', event_time: '2024-01-15 11:00:00.000000', revenue: 9.99, insert_id: 'ins-4', user_properties: { plan: 'pro' } }),
      line({ event_type: 'Purchase', user_id: 'u2', event_time: 'yesterday', insert_id: 'ins-5' }),
    ].join('\n');
    const zip = Buffer.from(zipSync({ '123/123_2024-01-15_10#0.json.gz': gzipSync(hour10), '123/123_2024-01-15_11#0.json.gz': gzipSync(hour11) }));
    const job = await jobEnded(server, ownerToken, `${importsPath(target.project.id)}/${(await upload(server, ownerToken, target.project.id, zip, 'amplitude', { name: 'export.zip' })).id}`);
    t.match(job, { state: 'succeeded', lines: 6, stored: 3, duplicates: 1, rejected: 2 });
    t.same(job.rejections, [
      { file: 'export.zip:123/123_2024-01-15_10#0.json.gz', line: 3, reason: 'event_type is required' },
      { file: 'export.zip:123/123_2024-01-15_11#0.json.gz', line: 3, reason: 'event_time is not a time' },
    ]);
    const rows = await eventsOf(server, target.project.id);
    t.match(rows, [
      { uuid: U(11), event: 'Song Played', ts: '2024-01-15T10:00:00.000Z', distinct_id: 'u1', anonymous_id: 'd1', user_id: 'u1', session_id: '1705312800000', source: 'import' },
      { event: 'pp.page_view', distinct_id: 'd2', anonymous_id: 'd2', user_id: null, session_id: null, url: 'https://shop.example/pricing', path: '/pricing' },
      { event: 'Purchase', ts: '2024-01-15T11:00:00.000Z', distinct_id: 'u1', revenue: 9.99 },
    ]);
    t.same(JSON.parse(rows[0]!.props), { title: 'Ünïcödé, "live"', duration: '215', platform: 'Web', country: 'Germany' });
    t.same(await readTable(server, 'SELECT distinct_id, actor_id FROM identity_links WHERE project_id = $1', [target.project.id]), [{ distinct_id: 'd1', actor_id: 'u1' }]);
    const traits = await readTable(server, 'SELECT traits::VARCHAR AS traits FROM actor_traits WHERE project_id = $1 AND user_id = $2', [target.project.id, 'u1']);
    t.same(JSON.parse(traits[0]!.traits), { plan: 'pro' });
    const again = await jobEnded(server, ownerToken, `${importsPath(target.project.id)}/${(await upload(server, ownerToken, target.project.id, zip, 'amplitude')).id}`);
    t.match(again, { stored: 0, duplicates: 4 });
  });

  t.test('cancelling an import stops it after its batch; what it stored stays; the upload is removed once done', async (t) => {
    const target = await createTenant(server);
    const ownerToken = await accessTokenFor(server, target.owner, target.org);
    const lines = Array.from({ length: 100_000 }, (_, i) => JSON.stringify({ event: 'view', distinct_id: `u${i % 100}`, timestamp: '2024-02-01 10:00:00', properties: { i } })).join('\n');
    const job = await upload(server, ownerToken, target.project.id, lines, 'posthog');
    const cancel = await server.request('DELETE', `${importsPath(target.project.id)}/${job.id}`, { token: ownerToken });
    t.equal(cancel.status, 200);
    const done = await jobEnded(server, ownerToken, `${importsPath(target.project.id)}/${job.id}`);
    t.equal(done.state, 'cancelled');
    t.equal(done.error, null);
    t.ok(done.stored < 100_000, `stopped early (${done.stored} stored)`);
    const rows = await readTable(server, 'SELECT count(*) AS n FROM events WHERE project_id = $1', [target.project.id]);
    t.equal(rows[0]!.n, done.stored, 'what it stored stays');
    t.equal((await server.request('DELETE', `${importsPath(target.project.id)}/999999`, { token: ownerToken })).status, 404);

    const small = await jobEnded(server, ownerToken, `${importsPath(target.project.id)}/${(await upload(server, ownerToken, target.project.id, lines.split('\n', 10).join('\n'), 'posthog')).id}`);
    t.equal(small.state, 'succeeded');
    const left = readdirSync(path.join(server.dataDir, 'imports'));
    t.equal(left.length, 1, 'only the cancelled upload is kept');
  });

  t.test('CSV through a column mapping', async (t) => {
    const target = await createTenant(server, { timezone: 'Europe/Berlin' });
    const ownerToken = await accessTokenFor(server, target.owner, target.org);
    const csv = [
      '\ufeffWhen,Who,What,Amount,Note,Browser,Internal',
      '2024-03-01T09:00:00+01:00,alice,order,"1,5",plain,Firefox,x',
      '2024-03-01 10:00:00,bob,order,20,"two\nlines, ""quoted""",Chrome,y',
      'soon,carol,order,3,,Safari,z',
      '2024-03-02 10:00:00,,order,3,,Safari,z',
      '2024-03-02 11:00:00,dave,order,7.25,,,',
      '',
    ].join('\n');
    const map = ['When=ts', 'Who=user_id', 'What=event', 'Amount=props.amount', 'Note=props.note', 'Internal=ignore'];
    const job = await jobEnded(server, ownerToken, `${importsPath(target.project.id)}/${(await upload(server, ownerToken, target.project.id, csv, 'csv', { name: 'orders.csv', map })).id}`);
    t.match(job, { state: 'succeeded', lines: 5, stored: 3, rejected: 2 });
    t.same(job.rejections, [
      { file: 'orders.csv', line: 5, reason: 'ts is not a time' },
      { file: 'orders.csv', line: 6, reason: 'distinct_id, user_id or anonymous_id is required' },
    ]);
    const rows = await eventsOf(server, target.project.id);
    t.match(rows, [
      { event: 'order', ts: '2024-03-01T08:00:00.000Z', user_id: 'alice', source: 'import' },
      { event: 'order', ts: '2024-03-01T10:00:00.000Z', user_id: 'bob' },
      { event: 'order', user_id: 'dave' },
    ]);
    t.same(
      rows.map((r) => JSON.parse(r.props)),
      [{ amount: '1,5', note: 'plain', Browser: 'Firefox' }, { amount: '20', note: 'two\nlines, "quoted"', Browser: 'Chrome' }, { amount: '7.25' }],
    );
  });
});

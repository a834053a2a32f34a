// GET /projects/{id}/events/stream over real HTTP: 401 and 404, the message format (the list's
// item), heartbeats, the sampling rate measured on arrival, the subscription freed on close, and
// a stopping server that does not wait for open streams.

import t from 'tap';
import { performance } from 'node:perf_hooks';
import { startTestServer } from '../support/testServer.js';
import { accessTokenFor, addMember, createTenant } from '../support/factories.js';
import { createIngestKey } from '../support/ingest.js';
import { eventBus } from '../../server/ingest/eventBus.js';
import { STREAMS_PER_USER } from '../../server/events/eventStream.js';
import { eventsTenant, ingestOk, qs } from './eventsKit.js';
import { endsWithin, openSse, waitFor } from './sseClient.js';

const T0 = new Date('2026-11-02T12:00:00.000Z');

/** The most messages whose arrival times fit in any window of `ms`. */
function busiestWindow(times: number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= ms) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

t.test('live stream', async (t) => {
  const server = await startTestServer(t, { now: T0, settings: { 'events.stream_heartbeat_ms': 100 } });
  const tenant = await eventsTenant(server);
  const { viewer, key, project } = tenant;
  const other = await createTenant(server);
  const otherKey = createIngestKey(server, other.project);
  const streamUrl = `${server.url}/api/v1/projects/${project.id}/events/stream`;
  const bus = eventBus(server.running.services);

  t.test('401 without a token or with an ingestion key; 404 for another organization', async (t) => {
    for (const token of [undefined, key.value, 'garbage']) {
      const res = await openSse(streamUrl, token);
      t.equal(res.status, 401);
      t.equal(res.body.error.code, 'unauthorized');
    }
    const res = await openSse(`${server.url}/api/v1/projects/${other.project.id}/events/stream`, viewer);
    t.equal(res.status, 404);
    t.equal(res.body.error.code, 'not_found');
    t.equal(bus.subscriberCount, 0, 'a refused request subscribes nothing');
  });

  t.test('events of this project after connecting, each as the list shows it; heartbeats', async (t) => {
    await ingestOk(server, key, [{ event: 'before', anonymous_id: 'x' }]);
    const client = await openSse(streamUrl, viewer);
    t.equal(client.status, 200);
    t.match(client.headers['content-type'], /^text\/event-stream/);
    t.equal(client.headers['cache-control'], 'no-store');
    await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
    t.equal(bus.subscriberCount, 1);

    t.equal((await server.request('POST', '/v1/identify', { token: key.value, body: { anonymous_id: 'anon-s', user_id: 'sam' } })).status, 202);
    await ingestOk(server, otherKey, [{ event: 'elsewhere', anonymous_id: 'y' }]);
    await ingestOk(
      server,
      key,
      [
        { event: 'first', anonymous_id: 'anon-s', props: { a: 1 }, url: 'https://shop.example/p?q=1' },
        { event: 'second', user_id: 'sam', props: { revenue: 'x' } },
      ],
      { 'x-pp-tracker': 'pp-node/2.0.0' },
    );
    await ingestOk(server, key, [{ event: 'third', anonymous_id: 'z', ts: '2026-11-02T11:00:00Z' }]);
    await client.waitFor(() => client.messages.length >= 3);
    await waitFor(() => client.comments.filter((c) => c.text === 'heartbeat').length >= 2, 3000);
    client.close();

    t.same(
      client.messages.map((m) => [m.event, m.data.event]),
      [
        ['event', 'first'],
        ['event', 'second'],
        ['event', 'third'],
      ],
      'nothing from before connecting or from another project',
    );
    const list = await server.request('GET', `${tenant.eventsPath}${qs({ event: ['first', 'second', 'third'] })}`, { token: viewer });
    const listed = Object.fromEntries(list.body.items.map((e: any) => [e.uuid, e]));
    for (const m of client.messages) t.strictSame(m.data, listed[m.data.uuid], `${m.data.event} is the list's item`);
    t.match(client.messages[0]!.data, { actor_id: 'sam', distinct_id: 'anon-s', sdk_name: 'pp-node', sdk_version: '2.0.0', path: '/p', props: { a: 1 } });
    t.match(client.messages[1]!.data, { invalid: true, invalid_reasons: ['revenue_not_numeric'] });
    t.match(client.messages[2]!.data, { ts: '2026-11-02T11:00:00.000Z', received_at: T0.toISOString() });
  });

  t.test('sampling: at most 20 messages a second, the rest counted as dropped', async (t) => {
    const client = await openSse(streamUrl, viewer);
    await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
    const started = performance.now();
    // 1,500 events in 30 concurrent requests: commit groups of hundreds to thousands of events.
    await Promise.all(
      Array.from({ length: 30 }, (_, r) =>
        ingestOk(
          server,
          key,
          Array.from({ length: 50 }, (_, i) => ({ event: `burst-${r}-${i}`, anonymous_id: 'b' })),
        ),
      ),
    );
    const counted = () => client.messages.reduce((n, m) => n + (m.event === 'dropped' ? m.data.count : 1), 0);
    await client.waitFor(() => counted() >= 1500, 10_000);
    const delivered = client.messages.filter((m) => m.event === 'event');
    const notices = client.messages.filter((m) => m.event === 'dropped');
    t.equal(counted(), 1500, 'delivered + dropped = sent');
    t.equal(new Set(delivered.map((m) => m.data.uuid)).size, delivered.length, 'no event twice');
    t.ok(delivered.length >= 20, `the budget is used (${delivered.length} delivered)`);
    t.ok(notices.length >= 1, 'the drop is reported');
    t.ok(
      notices.every((m) => Number.isInteger(m.data.count) && m.data.count > 0 && Object.keys(m.data).length === 1),
      'dropped carries {count}',
    );
    const busiest = busiestWindow(
      client.messages.map((m) => m.at),
      1000,
    );
    t.ok(busiest <= 21, `busiest one-second window held ${busiest} messages`);
    t.ok(performance.now() - started >= 900, 'reporting the drop waited for the window to pass');

    // Once the window has passed, a slow trickle goes through whole.
    const before = client.messages.length;
    await new Promise((r) => setTimeout(r, 1100));
    await ingestOk(
      server,
      key,
      Array.from({ length: 5 }, (_, i) => ({ event: `trickle-${i}`, anonymous_id: 't' })),
    );
    await client.waitFor(() => client.messages.length >= before + 5);
    await new Promise((r) => setTimeout(r, 100));
    t.same(
      client.messages.slice(before).map((m) => [m.event, m.data.event]),
      [0, 1, 2, 3, 4].map((i) => ['event', `trickle-${i}`]),
    );
    client.close();
  });

  t.test('a closed connection leaves no subscriber behind', async (t) => {
    const clients = await Promise.all([openSse(streamUrl, viewer), openSse(streamUrl, viewer), openSse(streamUrl, viewer)]);
    await waitFor(() => clients.every((c) => c.comments.length > 0));
    await waitFor(() => bus.subscriberCount === 3);
    t.equal(bus.subscriberCount, 3);
    clients[0]!.close();
    await waitFor(() => bus.subscriberCount === 2);
    t.equal(bus.subscriberCount, 2);
    for (const c of clients.slice(1)) c.close();
    await waitFor(() => bus.subscriberCount === 0);
    t.equal(bus.subscriberCount, 0);
    // Committing events with nobody listening is fine.
    await ingestOk(server, key, [{ event: 'unheard', anonymous_id: 'u' }]);
  });

  t.test('a stream ends when its viewer loses access', async (t) => {
    const owner = await accessTokenFor(server, tenant.owner, tenant.org);
    const opened = async () => {
      const user = await addMember(server, tenant.org, 'viewer', { password: null });
      const token = await accessTokenFor(server, user, tenant.org);
      const client = await openSse(streamUrl, token);
      await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
      return { user, token, client };
    };
    // Removed from the organization.
    const removed = await opened();
    t.equal((await server.request('DELETE', `/api/v1/orgs/${tenant.org.id}/members/${removed.user.id}`, { token: owner })).status, 204);
    t.ok(await endsWithin(removed.client, 3000), "the removed member's stream ended");
    // Signed out of the session the stream was opened with.
    const signedOut = await opened();
    const sessions = await server.request('GET', '/api/v1/me/sessions', { token: signedOut.token });
    t.equal((await server.request('DELETE', `/api/v1/me/sessions/${sessions.body.items[0].id}`, { token: signedOut.token })).status, 204);
    t.ok(await endsWithin(signedOut.client, 3000), "the signed-out session's stream ended");
    await waitFor(() => bus.subscriberCount === 0);
    t.equal(bus.subscriberCount, 0);
  });

  t.test(`a user holds at most ${STREAMS_PER_USER} streams at once; 429 beyond`, async (t) => {
    const clients = [];
    for (let i = 0; i < STREAMS_PER_USER; i++) clients.push(await openSse(streamUrl, viewer));
    t.ok(clients.every((c) => c.status === 200));
    const refused = await openSse(streamUrl, viewer);
    t.equal(refused.status, 429);
    t.equal(refused.body.error.code, 'rate_limited');
    t.equal(refused.body.error.message, `at most ${STREAMS_PER_USER} live streams may be open at once per user; close one first`);
    t.equal(refused.headers['retry-after'], '5');
    const owner = await accessTokenFor(server, tenant.owner, tenant.org);
    const another = await openSse(streamUrl, owner);
    t.equal(another.status, 200, 'another user has slots of their own');
    another.close();
    clients[0]!.close();
    await waitFor(() => bus.subscriberCount === STREAMS_PER_USER - 1);
    const again = await openSse(streamUrl, viewer);
    t.equal(again.status, 200, 'a closed stream frees its slot');
    for (const c of [...clients.slice(1), again]) c.close();
    await waitFor(() => bus.subscriberCount === 0);
  });

  t.test('a stopping server ends open streams instead of waiting for them', async (t) => {
    const client = await openSse(streamUrl, viewer);
    await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
    const started = performance.now();
    await server.close();
    const took = performance.now() - started;
    t.ok(await endsWithin(client, 3000), 'the client saw the end');
    t.ok(took < 3000, `stopped in ${Math.round(took)} ms (the drain limit is 10 s)`);
    t.equal(bus.subscriberCount, 0);
  });
});

t.test('a removed member gets no further event, even before the once-a-second check', async (t) => {
  // Heartbeats every minute: the periodic access check runs once a second, so only the check
  // before each write can stop the event that follows the removal at once.
  const server = await startTestServer(t, { now: T0, settings: { 'events.stream_heartbeat_ms': 60_000 } });
  const tenant = await eventsTenant(server);
  const streamUrl = `${server.url}/api/v1/projects/${tenant.project.id}/events/stream`;
  const owner = await accessTokenFor(server, tenant.owner, tenant.org);
  const member = await addMember(server, tenant.org, 'viewer', { password: null });
  const client = await openSse(streamUrl, await accessTokenFor(server, member, tenant.org));
  await client.waitFor(() => client.comments.some((c) => c.text === 'connected'));
  await ingestOk(server, tenant.key, [{ event: 'while-member', anonymous_id: 'a' }]);
  await client.waitFor(() => client.messages.some((m) => m.data.event === 'while-member'));
  t.equal((await server.request('DELETE', `/api/v1/orgs/${tenant.org.id}/members/${member.id}`, { token: owner })).status, 204);
  await ingestOk(server, tenant.key, [{ event: 'after-removal', anonymous_id: 'a' }]);
  t.ok(await endsWithin(client, 3000), 'the stream ended');
  t.notOk(
    client.messages.some((m) => m.data.event === 'after-removal'),
    'the event after the removal was not sent',
  );
});

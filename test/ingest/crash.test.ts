// Durability: `ppctl serve` is killed with SIGKILL in the middle of sustained ingest from several
// clients. After a restart every event that was answered 202 is stored exactly once and nothing
// that was never sent is stored; re-sending what was in flight then completes the set, still
// exactly once (the uuids make the retries idempotent).

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { spawnServe } from '../support/ppctl.js';

const CLIENTS = 6;

interface Batch {
  events: Array<{ event: string; uuid: string; anonymous_id: string }>;
  acked: boolean;
}

t.test('SIGKILL during sustained ingest', async (t) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'pp-crash-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));

  const setup = await startTestServer(t, { dataDir });
  const { project } = await createTenant(setup);
  const key = createIngestKey(setup, project).value;
  await setup.close();

  const serve = await spawnServe(['--data-dir', dataDir]);
  const batches: Batch[] = [];
  // Each client sends until a request fails: the last batch of each was in flight when the
  // process died (answers come within a millisecond, so a flag set at the kill would often stop
  // every client between two requests).
  const client = async (n: number) => {
    for (let i = 0; ; i++) {
      const size = 1 + ((i * 7 + n * 13) % 40);
      const batch: Batch = { events: Array.from({ length: size }, () => ({ event: `load-${n}`, uuid: randomUUID(), anonymous_id: `client-${n}` })), acked: false };
      batches.push(batch);
      try {
        const res = await fetch(`${serve.url}/v1/track`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ events: batch.events }),
        });
        const body = (await res.json()) as { accepted?: number };
        if (res.status === 202 && body.accepted === size) batch.acked = true;
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, n) => client(n));
  // Let the load run until a good number of batches is acknowledged, then pull the plug.
  while (batches.filter((b) => b.acked).length < 150) await new Promise((resolve) => setTimeout(resolve, 20));
  serve.child.kill('SIGKILL');
  await Promise.all(clients);
  await serve.exited;

  const sent = new Set(batches.flatMap((b) => b.events.map((e) => e.uuid)));
  const acked = batches.filter((b) => b.acked).flatMap((b) => b.events.map((e) => e.uuid));
  const unacked = batches.filter((b) => !b.acked);
  t.ok(unacked.length >= CLIENTS, `${unacked.length} batches were in flight at the kill`);

  const restarted = await startTestServer(t, { dataDir });
  const storedUuids = async () => (await readTable(restarted, 'SELECT uuid::VARCHAR AS uuid FROM events WHERE project_id = $1', [project.id])).map((r) => String(r.uuid));

  const afterCrash = await storedUuids();
  const counts = new Map<string, number>();
  for (const u of afterCrash) counts.set(u, (counts.get(u) ?? 0) + 1);
  t.same(
    [...counts.values()].filter((c) => c > 1),
    [],
    'no event is stored twice',
  );
  t.same(
    acked.filter((u) => !counts.has(u)),
    [],
    `all ${acked.length} acknowledged events survived`,
  );
  t.same(
    afterCrash.filter((u) => !sent.has(u)),
    [],
    'nothing that was never sent is stored',
  );

  // The clients retry what was never acknowledged, and a few acknowledged batches besides.
  for (const batch of [...unacked, ...batches.filter((b) => b.acked).slice(0, 5)]) {
    const res = await ingestEvents(restarted, key, batch.events);
    t.equal(res.status, 202);
  }
  const final = await storedUuids();
  t.equal(final.length, sent.size, 'every sent event is stored once after the retries');
  t.equal(new Set(final).size, final.length);
});

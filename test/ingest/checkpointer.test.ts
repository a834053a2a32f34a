// The writer's checkpoints: started on a reader connection once the write-ahead log passes the
// threshold, one at a time, and awaited before the store closes.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { countRows, createIngestKey, ingestEvents } from '../support/ingest.js';
import { Checkpointer } from '../../server/ingest/checkpointer.js';

t.test('a checkpoint folds the write-ahead log into the file once it passes the threshold', async (t) => {
  const server = await startTestServer(t);
  const { project } = await createTenant(server);
  const key = createIngestKey(server, project);
  const wal = path.join(server.dataDir, 'events.duckdb.wal');
  const walSize = () => {
    try {
      return statSync(wal).size;
    } catch {
      return 0;
    }
  };
  await ingestEvents(server, key, Array.from({ length: 200 }, (_, i) => ({ event: 'ck', uuid: randomUUID(), anonymous_id: `a${i}`, props: { i } })));
  const before = walSize();
  t.ok(before > 0, 'the commit went to the log');

  const high = new Checkpointer(server.running.services, before + 1);
  high.afterCommit();
  await high.close();
  t.same(high.stats, { started: 0, failed: 0 }, 'below the threshold nothing starts');

  const low = new Checkpointer(server.running.services, before);
  low.afterCommit();
  low.afterCommit();
  await low.close();
  t.same(low.stats, { started: 1, failed: 0 }, 'one at a time');
  t.ok(walSize() < before, `the log shrank (${before} -> ${walSize()} bytes)`);
  t.equal(await countRows(server, 'events', project.id), 200, 'every event still readable');
});

// A start after a kill that left acknowledged batches in the ingest journal: the server listens and
// answers health at once, reports not ready while the journal is loaded in the background, takes
// new batches behind it (503 with Retry-After while the replay fills the backlog), and ends with
// every acknowledged event stored once.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { eventually } from '../support/eventually.js';
import { createLogger } from '../../server/ground/logger.js';
import { IngestJournal, JOURNAL_DIR } from '../../server/ingest/journal.js';
import { MAX_BACKLOG_ROWS } from '../../server/ingest/groupWriter.js';
import { normalizeEvent } from '../../server/ingest/normalizeEvent.js';

const BATCHES = 120;
const PER_BATCH = 500;

t.test('the journal is loaded in the background while the server already answers', async (t) => {
  const dataDir = await tempDir(t, 'pp-replay-');
  const first = await startTestServer(t, { dataDir });
  const { project } = await createTenant(first);
  const key = createIngestKey(first, project);
  const [{ position }] = (await readTable(first, 'SELECT position FROM ingest_journal')) as [{ position: number }];
  await first.close();

  // What a server killed under load leaves: batches it answered 202, journaled past the position
  // the event store holds, more of them than the backlog may hold.
  const journal = IngestJournal.open(path.join(dataDir, JOURNAL_DIR), createLogger('silent'));
  journal.recover(position);
  const receivedAt = new Date('2026-11-02T11:59:00Z');
  const journaled: string[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const events = Array.from({ length: PER_BATCH }, (_, i) => {
      const uuid = randomUUID();
      journaled.push(uuid);
      return normalizeEvent({ event: 'before-kill', uuid, anonymous_id: `a${b}-${i}`, props: { b } }, { projectId: project.id, receivedAt, source: 'server', sdk: null, keyId: key.prefix });
    });
    await journal.append({ events, rejections: [] });
  }
  await journal.close(0);
  t.ok(journaled.length > MAX_BACKLOG_ROWS, 'the journal holds more than the backlog limit');

  const second = await startTestServer(t, { dataDir });
  const asked = Date.now();
  const live = await second.request('GET', '/api/v1/health');
  const answered = Date.now();
  const ready = await second.request('GET', '/api/v1/health?ready=1');
  t.comment(`liveness in ${answered - asked} ms, readiness in ${Date.now() - answered} ms`);
  // Generous: group commits hold the event loop for a moment each, and the machine is shared.
  t.ok(answered - asked < 2_000, 'health answers at once, long before the replay is done');
  t.equal(live.status, 200, 'alive');
  t.equal(ready.status, 503, 'not ready while the journal is loaded');
  t.equal(ready.body.error.code, 'unavailable');
  t.equal(ready.body.error.details.ingest_journal, 'loading');

  // The replay holds more than the backlog allows: a new batch is told to come back.
  const early = [{ event: 'during-replay', uuid: randomUUID(), anonymous_id: 'c' }];
  const refused = await ingestEvents(second, key, early);
  t.equal(refused.status, 503);
  t.equal(refused.headers.get('retry-after'), '5');
  t.equal(refused.body.error.code, 'unavailable');

  // Once the backlog has room again (the replay still running or not), new batches are answered
  // once journaled, and load after the replayed ones.
  const late = await eventually(
    'a batch to be accepted',
    () => ingestEvents(second, key, early),
    (res) => res.status === 202,
    60_000,
  );
  t.equal(late.body.accepted, 1);
  await eventually(
    'the server to be ready',
    () => second.request('GET', '/api/v1/health?ready=1'),
    (res) => res.status === 200,
    60_000,
  );

  const stored = await readTable(second, 'SELECT uuid::VARCHAR AS uuid, event FROM events WHERE project_id = $1', [project.id]);
  const uuids = stored.filter((r) => r.event === 'before-kill').map((r) => r.uuid as string);
  t.equal(uuids.length, journaled.length, 'every acknowledged event is stored');
  t.equal(new Set(uuids).size, uuids.length, 'none twice');
  t.same(new Set(uuids), new Set(journaled));
  t.equal(stored.filter((r) => r.event === 'during-replay').length, 1, 'the batch answered during the replay, once');
  t.ok(second.logs.some((l) => l.msg === 'ingest journal: loaded what was acknowledged before the last stop' && l.batches === BATCHES));
});

// The ingest journal on its own (segments, release, torn ends) and at a restart: what a stopped
// process answered but did not load is loaded once, what it had loaded is not loaded again, and
// a torn record at the end of a segment is left out.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { startTestServer } from '../support/testServer.js';
import { createTenant } from '../support/factories.js';
import { createIngestKey, ingestEvents, readTable } from '../support/ingest.js';
import { createLogger } from '../../server/ground/logger.js';
import { IngestJournal, JOURNAL_DIR, encodeRecord, type JournalBatch } from '../../server/ingest/journal.js';
import { normalizeEvent } from '../../server/ingest/normalizeEvent.js';

const quiet = createLogger('silent');
const segments = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.jnl') && !f.startsWith('unloaded-'))
    .sort();

function batchOf(projectId: number, names: string[], receivedAt = new Date('2026-11-02T12:00:00Z'), uuids: string[] = []): JournalBatch {
  return {
    events: names.map((event, i) =>
      normalizeEvent({ event, uuid: uuids[i] ?? randomUUID(), anonymous_id: `a${i}`, props: { plan: 'pro', n: i } }, { projectId, receivedAt, source: 'server', sdk: null, keyId: 'testkey1' }),
    ),
    rejections: [],
  };
}

t.test('segments: records come back in order, loaded segments are removed, a torn end is left out', async (t) => {
  const dir = await tempDir(t, 'pp-journal-');
  const batches = Array.from({ length: 6 }, (_, i) => batchOf(7, [`e${i}`, `f${i}`]));
  // Segments a little smaller than a record: each write closes its segment.
  const segmentBytes = encodeRecord(1, batches[0]!).length - 16;
  const folder = path.join(dir, 'journal');
  const journal = IngestJournal.open(folder, quiet, { segmentBytes });
  t.same(journal.recover(0), [], 'an empty journal');
  t.notOk(existsSync(folder), 'opening creates nothing (a command run as another user must not own the folder)');
  // Three at once: the first is synced alone, the two that came meanwhile share the next sync
  // (and a segment); then one after another, a segment each.
  const seqs = [...(await Promise.all(batches.slice(0, 3).map((b) => journal.append(b))))];
  for (const b of batches.slice(3)) seqs.push(await journal.append(b));
  t.same(seqs, [1, 2, 3, 4, 5, 6]);
  t.same(segments(folder), ['0000000000000001.jnl', '0000000000000002.jnl', '0000000000000004.jnl', '0000000000000005.jnl', '0000000000000006.jnl']);
  journal.release(4);
  const kept = segments(folder);
  t.same(kept, ['0000000000000005.jnl', '0000000000000006.jnl'], 'segments holding only records up to 4 are removed');
  await journal.close(4);
  appendFileSync(path.join(folder, kept.at(-1)!), Buffer.from([40, 0, 0, 0, 1, 2, 3, 4, 5]));

  const reopened = IngestJournal.open(folder, quiet, { segmentBytes });
  const records = reopened.recover(4);
  t.same(
    records.map((r) => r.seq),
    [5, 6],
  );
  const first = records[0]!.batch.events[0]!;
  const original = batches[4]!.events[0]!;
  t.same(first, original, 'a row comes back as it was appended, dates and parsed properties included');
  t.equal(await reopened.append(batchOf(7, ['g'])), 7, 'numbering goes on after the last record');
  t.equal(segments(folder).at(-1), '0000000000000007.jnl', 'in a new segment, never after a torn end');
  await reopened.close(7);
  t.same(segments(folder), [], 'all loaded: nothing is kept');
});

t.test('after a stop that left answered batches unloaded, the next start loads them once', async (t) => {
  const dataDir = await tempDir(t, 'pp-journal-');
  const first = await startTestServer(t, { dataDir });
  const { project } = await createTenant(first);
  const key = createIngestKey(first, project);
  const earlier = [randomUUID(), randomUUID()];
  t.equal(
    (
      await ingestEvents(
        first,
        key,
        earlier.map((uuid) => ({ event: 'before', uuid, anonymous_id: 'b' })),
      )
    ).status,
    202,
  );
  const [{ position }] = (await readTable(first, 'SELECT position FROM ingest_journal')) as [{ position: bigint }];
  await first.close();
  const dir = path.join(dataDir, JOURNAL_DIR);
  t.same(segments(dir), [], 'a clean stop loads everything and keeps no segment');

  // What a process killed after answering would leave: records past the stored position, one of
  // them re-sending an event stored before; a record the store already holds; a torn end.
  const loaded = Number(position);
  writeFileSync(path.join(dir, `${String(loaded).padStart(16, '0')}.jnl`), encodeRecord(loaded, batchOf(project.id, ['already-loaded'])));
  const journal = IngestJournal.open(dir, quiet);
  journal.recover(loaded - 1);
  t.equal(await journal.append(batchOf(project.id, ['recovered', 'recovered'])), loaded + 1);
  t.equal(await journal.append(batchOf(project.id, ['recovered', 'before'], undefined, [randomUUID(), earlier[0]!])), loaded + 2);
  await journal.close(0);
  appendFileSync(path.join(dir, segments(dir).at(-1)!), Buffer.from([200, 1, 0, 0, 9, 9]));

  const second = await startTestServer(t, { dataDir });
  const counts = await readTable(second, 'SELECT event, count(*) AS n FROM events WHERE project_id = $1 GROUP BY event ORDER BY event', [project.id]);
  t.same(
    counts.map((r) => [r.event, Number(r.n)]),
    [
      ['before', 2],
      ['recovered', 3],
    ],
    'the unloaded records once, the loaded one not again, the re-sent event once',
  );
  t.same(await readTable(second, 'SELECT position FROM ingest_journal'), [{ position: BigInt(loaded + 2) }]);
  t.ok(second.logs.some((l) => l.msg === 'ingest journal: loaded what was acknowledged before the last stop' && l.batches === 2 && l.events === 4));
  t.ok(second.logs.some((l) => String(l.msg).startsWith('ingest journal: the end of a segment is torn')));
  const more = await ingestEvents(second, key, [{ event: 'after', anonymous_id: 'c' }]);
  t.equal(more.status, 202);
  t.same(await readTable(second, 'SELECT position FROM ingest_journal'), [{ position: BigInt(loaded + 3) }], 'numbering goes on');
  await second.close();
  t.same(segments(dir), []);
});

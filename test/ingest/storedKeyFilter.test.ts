// The in-memory filter of stored (project, uuid) pairs on its own: never a false negative for the
// range it covers, generations that rotate and move that range, forced collisions.

import t from 'tap';
import { randomUUID } from 'node:crypto';
import { StoredKeyFilter, pairHash, uuidWords } from '../../server/ingest/storedKeyFilter.js';

t.test('every added pair is held; another project or uuid almost never is', async (t) => {
  const filter = new StoredKeyFilter({ capacity: 40_000, generations: 4, coveredFromUs: 0 });
  const added = Array.from({ length: 30_000 }, (_, i) => ({ project: 1 + (i % 7), uuid: randomUUID() }));
  added.forEach((p, i) => filter.add(p.project, p.uuid, i));
  t.ok(
    added.every((p) => filter.mayHold(p.project, p.uuid)),
    'no false negative',
  );
  t.equal(filter.coveredFromUs, 0, 'nothing dropped while within capacity');
  const others = added.filter((p) => filter.mayHold(p.project + 7, p.uuid)).length + added.filter((p) => filter.mayHold(p.project, randomUUID())).length;
  t.equal(others, 0, 'a 64-bit hash: no collision among 60,000 absent pairs');
});

t.test('the hash reads the 32 hex digits and the project', async (t) => {
  const u = '0b6c2f9e-3d0b-4a59-9f53-2f4f8a2b1c11';
  t.same(uuidWords(u), [0x0b6c2f9e, 0x3d0b4a59, 0x9f532f4f, 0x8a2b1c11], 'four unsigned words, dashes skipped');
  const hash = (p: number, uuid: string) => pairHash(p, ...uuidWords(uuid)).join();
  t.equal(hash(3, u), hash(3, u), 'stable');
  t.not(hash(3, u), hash(4, u), 'the project counts');
  // One digit changed in each of the five groups.
  for (const v of [
    '1b6c2f9e-3d0b-4a59-9f53-2f4f8a2b1c11',
    '0b6c2f9e-3d0c-4a59-9f53-2f4f8a2b1c11',
    '0b6c2f9e-3d0b-4a58-9f53-2f4f8a2b1c11',
    '0b6c2f9e-3d0b-4a59-9f54-2f4f8a2b1c11',
    '0b6c2f9e-3d0b-4a59-9f53-2f4f8a2b1c12',
  ]) {
    t.not(hash(3, v), hash(3, u), v);
  }
});

t.test('a full generation starts the next; dropping the oldest moves coveredFromUs past its newest pair', async (t) => {
  // 4 generations of 2 pairs each.
  const filter = new StoredKeyFilter({ capacity: 8, generations: 4, coveredFromUs: 500 });
  const uuids = Array.from({ length: 12 }, () => randomUUID());
  // Received out of order within each generation (1001 before 1000, …): its newest pair counts, not its last.
  uuids.slice(0, 8).forEach((u, i) => filter.add(1, u, 1000 + (i ^ 1)));
  t.equal(filter.size, 8);
  t.equal(filter.coveredFromUs, 500, 'still everything');
  filter.add(1, uuids[8]!, 1008);
  t.equal(filter.size, 7, 'the oldest generation (two pairs) went');
  t.equal(filter.coveredFromUs, 1002, 'pairs received after 1001 µs are all held');
  t.notOk(filter.mayHold(1, uuids[0]!));
  t.ok(uuids.slice(2, 9).every((u) => filter.mayHold(1, u)));
  // A late pair with an old time lives as long as its generation.
  uuids.slice(9, 12).forEach((u, i) => filter.add(1, u, [5000, 900, 1010][i]!));
  t.equal(filter.coveredFromUs, 1004, 'after the generation holding 1002 and 1003 went');
  t.ok(filter.mayHold(1, uuids[10]!), 'held although received before coveredFromUs');
});

t.test('a hash that always collides makes every pair a suspect, never a miss', async (t) => {
  const filter = new StoredKeyFilter({ capacity: 100, generations: 2, coveredFromUs: 0, hash: () => [0, 0] });
  t.notOk(filter.mayHold(1, randomUUID()), 'empty');
  filter.add(1, randomUUID(), 1);
  t.ok(filter.mayHold(2, randomUUID()), 'every pair now looks stored');
  t.equal(filter.size, 1, 'the (0, 0) hash has a slot of its own');
});

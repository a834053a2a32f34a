// The events store's writer connection: one user at a time, in the order they asked, so a
// statement issued while a transaction is open waits for it instead of landing inside it or
// closing its pending result; what only reads (the applied migrations) never waits for it; and a
// read that needs more memory than the budget is a clear 503, not an internal error.

import t, { type Test } from 'tap';
import path from 'node:path';
import { tempDir } from '../support/tempDir.js';
import { DuckDbEngine } from '../../server/engine/duckdb/duckDbEngine.js';
import { QueryMemoryError } from '../../server/ground/errors.js';
import { appliedEvents, migrateEvents } from '../../server/engine/duckdb/migrations.js';

async function openStore(t: Test): Promise<DuckDbEngine> {
  const store = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'));
  t.teardown(() => store.close());
  await store.write('CREATE TABLE marks (who VARCHAR)');
  return store;
}

function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

async function marks(store: DuckDbEngine): Promise<string[]> {
  return (await store.read('SELECT who FROM marks ORDER BY who')).map((r) => String(r.who));
}

t.test('a write issued during a held transaction runs after it, outside it', async (t) => {
  const store = await openStore(t);
  const held = gate();
  const order: string[] = [];
  const holder = store.useWriter(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    await conn.run("INSERT INTO marks VALUES ('rolled back')");
    await held.opened;
    await conn.run('ROLLBACK');
    order.push('holder');
  });
  const stray = store.write("INSERT INTO marks VALUES ('stray')").then(() => order.push('stray'));
  await new Promise((r) => setTimeout(r, 50));
  t.same(order, [], 'the stray write waits while the transaction is open');
  held.open();
  await Promise.all([holder, stray]);
  t.same(order, ['holder', 'stray']);
  t.same(await marks(store), ['stray'], 'the stray row is kept: it was not part of the rolled-back transaction');
});

t.test('a user that fails does not hold up the next', async (t) => {
  const store = await openStore(t);
  const failed = store.useWriter(async (conn) => {
    await conn.run('SELECT * FROM nowhere');
  });
  const next = store.write("INSERT INTO marks VALUES ('next')");
  await t.rejects(failed, /nowhere/);
  await next;
  t.same(await marks(store), ['next']);
});

t.test('the applied migrations are read without waiting for the writer', async (t) => {
  const store = await openStore(t);
  t.same(await appliedEvents(store), [], 'a store without a ledger has applied nothing');
  await migrateEvents(store);
  const held = gate();
  const holder = store.useWriter(async (conn) => {
    await conn.run('BEGIN TRANSACTION');
    await held.opened;
    await conn.run('COMMIT');
  });
  const applied = await appliedEvents(store);
  t.ok(applied.length > 0 && applied.every((m, i) => i === 0 || m.version > applied[i - 1]!.version), `${applied.length} migrations, in order, while the writer is held`);
  held.open();
  await holder;
});

t.test('a read beyond the memory budget is refused with 503 query_memory_exceeded, and the store goes on', async (t) => {
  const store = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'), { memoryLimitMb: 64 });
  t.teardown(() => store.close());
  // A list of three million strings cannot spill: it needs far more than 64 MiB at once.
  const err = await store.read('SELECT list(md5(i::VARCHAR)) AS x FROM range(3000000) t(i)').catch((e: unknown) => e);
  t.ok(err instanceof QueryMemoryError);
  t.match(err, { status: 503, code: 'query_memory_exceeded', details: { memory_limit_mb: 64 } });
  t.match((err as Error).message, /events\.memory_limit_mb = 64.*narrow the date range or raise the setting/);
  t.same(await store.read('SELECT 42 AS n'), [{ n: 42 }], 'the next read runs');
});

t.test('closing under running work interrupts the reads, stops the owners of their own connections and settles every promise', async (t) => {
  const store = await DuckDbEngine.open(path.join(await tempDir(t), 'events.duckdb'));
  const long = 'SELECT count(*) AS n FROM range(3000000000) t(x) WHERE x % 7 = 3';
  let stopped = false;
  const conn = await store.connect(async () => {
    stopped = true;
    conn.interrupt();
    await ownEnded;
  });
  const ownEnded = conn.runAndReadAll(long).then(
    () => 'finished',
    () => 'interrupted',
  );
  const reads = Promise.allSettled([store.read(long), store.read(long), store.read(long), store.read('SELECT 1 AS n')]);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await store.close();
  t.ok(stopped, 'the owner was stopped before its connection closed');
  t.equal(await ownEnded, 'interrupted', "the own connection's statement ended");
  const settled = await reads;
  t.same(
    settled.map((s) => s.status),
    ['rejected', 'rejected', 'rejected', 'rejected'],
    'running reads were interrupted and the waiting one refused',
  );
  t.match((settled[3] as PromiseRejectedResult).reason, { message: 'event store is closed' });
  await t.rejects(store.read('SELECT 1'), { message: 'event store is closed' });
  await t.rejects(store.write('SELECT 1'), { message: 'event store is closed' });
  await store.close();
});

t.test('the data version moves after every write, and only for the reported projects of a reported turn', async (t) => {
  const store = await openStore(t);
  const [a0, b0] = [await store.dataVersion(1), await store.dataVersion(2)];
  await store.write("INSERT INTO marks VALUES ('x')");
  const [a1, b1] = [await store.dataVersion(1), await store.dataVersion(2)];
  t.not(a1, a0);
  t.not(b1, b0);
  let during = '';
  await store.useWriter(
    async (conn) => {
      await store.changedAfter([1], () => conn.run("INSERT INTO marks VALUES ('y')"));
      during = await store.dataVersion(1);
    },
    { changes: 'reported' },
  );
  t.not(during, a1, 'reported once the write is done');
  t.equal(await store.dataVersion(1), during, 'not again when the turn ends');
  t.equal(await store.dataVersion(2), b1, 'another project keeps its version');
  await store.useWriter((conn) => conn.run("INSERT INTO marks VALUES ('z')"), { changes: 'reported' });
  t.equal(await store.dataVersion(2), b1, 'a reported turn that reports nothing changes nothing');
  await t.rejects(store.useWriter(() => Promise.reject(new Error('failed')), {}));
  t.not(await store.dataVersion(2), b1, 'a failed write of every project counts too');
});

// The page rollup's compaction merges a run of whole project-months at a time so that its lists fit
// the event store's memory: on random delta rows, merging in small runs leaves the same table as
// one merge of everything — one row per (project, day, url), the same sums and the same sets of
// clickers, sessions and ids — in key order.

import t from 'tap';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { compactPageDays } from '../../server/engine/rollups/pageDays.js';
import { packageRoot } from '../../server/ground/packageRoot.js';

const DDL = readFileSync(path.join(packageRoot(), 'migrations/duckdb/0025_page_days.sql'), 'utf8');
const CREATE = DDL.slice(DDL.indexOf('CREATE TABLE page_days'), DDL.indexOf(');', DDL.indexOf('CREATE TABLE page_days')) + 2);

const deltaRow = fc.record({
  project: fc.integer({ min: 1, max: 3 }),
  // Days over seven months, month ends and a leap day among them.
  day: fc.integer({ min: 0, max: 210 }),
  url: fc.constantFrom('https://a.example/', 'https://a.example/x', 'https://b.example/'),
  events: fc.integer({ min: 0, max: 5 }),
  depth: fc.option(fc.integer({ min: 0, max: 100 }), { nil: null }),
  clickers: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
  sessions: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
});
type DeltaRow = typeof deltaRow extends fc.Arbitrary<infer R> ? R : never;

async function compacted(conn: DuckDBConnection, rows: DeltaRow[], perMerge: number): Promise<string[]> {
  await conn.run('DROP TABLE IF EXISTS page_days');
  await conn.run(CREATE);
  for (const r of rows) {
    const list = (xs: number[]) => `[${xs.join(', ')}]::UBIGINT[]`;
    await conn.run(
      `INSERT INTO page_days VALUES (${r.project}, DATE '2024-01-01' + ${r.day}, '${r.url}', ${r.events}, ${r.events}, 1, 0, 0, 1, 1, 1, 0, 0, ${r.depth ?? 'NULL'},
        ${list(r.clickers)}, ${list(r.sessions)}, ${list(r.clickers.map((c) => c + 10))})`,
    );
  }
  await compactPageDays(
    async (sql) => void (await conn.run(sql)),
    async (sql) => (await conn.runAndReadAll(sql)).getRowObjects(),
    perMerge,
  );
  // In storage order, lists as sorted sets.
  const out = await conn.runAndReadAll(`SELECT project_id, strftime(day, '%Y-%m-%d') AS day, url, events, page_views, clicks, measured, depth_sum,
      list_sort(clickers)::VARCHAR AS clickers, list_sort(sessions)::VARCHAR AS sessions, list_sort(sessionless)::VARCHAR AS sessionless
    FROM page_days ORDER BY rowid`);
  return out.getRowObjects().map((r) => JSON.stringify(r, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
}

t.test('merging a few project-months at a time leaves what one merge leaves, in key order', async (t) => {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  t.teardown(() => {
    conn.closeSync();
    instance.closeSync();
  });
  await fc.assert(
    fc.asyncProperty(fc.array(deltaRow, { minLength: 1, maxLength: 60 }), fc.integer({ min: 1, max: 12 }), async (rows, perMerge) => {
      const whole = await compacted(conn, rows, Number.POSITIVE_INFINITY);
      const inParts = await compacted(conn, rows, perMerge);
      t.same(inParts, whole);
      const keys = whole.map((r) => JSON.parse(r) as { project_id: number; day: string; url: string });
      const sorted = [...keys].sort((a, b) => a.project_id - b.project_id || a.day.localeCompare(b.day) || a.url.localeCompare(b.url));
      t.same(keys, sorted, 'rows in (project, day, url) order');
      t.equal(new Set(keys.map((k) => `${k.project_id}/${k.day}/${k.url}`)).size, keys.length, 'one row per key');
    }),
    { numRuns: 40 },
  );
});

// Exports on ClickHouse (one node) against exports on DuckDB: the same history (every stored field,
// awkward values, labeled rows, events sharing an instant, days around Santiago's DST changes, where
// midnight is skipped and repeated) imported into a DuckDB server and a ClickHouse server, then
// exported from both as NDJSON, CSV and Parquet, whole and by local days: every row the same bytes
// (the orders differ: DuckDB writes in stored order, ClickHouse in event time and uuid). The pages
// cut small (windows down to one second, several pages inside a second of ties) write the same
// file; rows stored twice before parts merge are written once; a person's deletion is respected; a
// cancelled export stops between pages and leaves nothing behind. Then the round trips: a ClickHouse
// export imported into a fresh project of the same ClickHouse server exports the same bytes, and
// imported into the DuckDB server exports what DuckDB exported.

import t from 'tap';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { startClickHouse } from '../support/clickhouseCluster.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { accessTokenFor, createTenant } from '../support/factories.js';
import { eventually } from '../support/eventually.js';
import { createProject } from '../../server/accounts/projects.js';
import { statementsOf } from '../../server/engine/statements.js';
import type { PagedExport } from '../../server/engine/duckdb/exportSql.js';
import { writePagedExport } from '../../server/transfer/exportPages.js';
import { exportsPath, importsPath, jobEnded, upload } from './transferSupport.js';

const ZONE = 'America/Santiago';
const DATABASE = 'pp_export';

/** A small deterministic generator (mulberry32). */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Instants around Santiago's DST changes of 2026 (midnight repeated on April 5th, skipped on September 6th), many shared. */
const CENTRES = [Date.parse('2026-04-05T03:00:00Z'), Date.parse('2026-04-05T04:00:00Z'), Date.parse('2026-09-06T04:00:00Z'), Date.parse('2026-09-06T03:59:59Z')];
const TIE = Date.parse('2026-09-06T04:00:00.250Z');

const REVENUES = [null, 0, 0.1, -5, 19.9, 1e300, -1.234e-7, 123456789.12345678, 2.2250738585072014e-308, 2 ** 53 + 2, 1 / 3];
const TEXTS = ['plain', 'ünïcode — 日本語 🎉', 'quote " and \\ backslash', 'comma, "quoted"\nnew line', 'tab\there', '', 'a\u0001b', '/slash/'];

/** A history as pp's own export writes it: every stored field, labeled rows among them. */
function history(count: number, seed: number): Array<Record<string, unknown>> {
  const random = generator(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join('');
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
  const rows: Array<Record<string, unknown>> = [];
  for (let i = 0; i < count; i++) {
    const spread = pick([0, 1000, 60_000, 3_600_000, 2 * 86_400_000]);
    const ms = i % 5 === 0 ? TIE : pick(CENTRES) + Math.round((random() - 0.5) * spread);
    const anonymous = `anon-${Math.floor(random() * 12)}`;
    const user = random() < 0.4 ? `user-${Math.floor(random() * 5)}` : null;
    const invalid = random() < 0.15;
    // A labeled row carries its source's ids and time, as a rule derives it (labeled/derive.ts).
    const source = rows.length > 0 && random() < 0.1 ? pick(rows.filter((r) => r.rule_id === null)) : undefined;
    const url = random() < 0.5 ? `https://shop.example/p/${i}?q=${encodeURIComponent(pick(TEXTS))}` : null;
    rows.push({
      uuid: uuid(),
      ts: source?.ts ?? new Date(ms).toISOString(),
      received_at: source?.received_at ?? new Date(ms + Math.floor(random() * 5000)).toISOString(),
      event: source ? 'Checkout clicked' : pick(['view', 'signup', 'purchase', 'pp.click', 'ëvent "x"']),
      distinct_id: source?.distinct_id ?? user ?? anonymous,
      anonymous_id: source?.anonymous_id ?? anonymous,
      user_id: source ? source.user_id : user,
      session_id: source ? source.session_id : random() < 0.5 ? `s-${Math.floor(random() * 4)}` : null,
      source: pick(['browser', 'server', 'import', 'system', 'unknown']),
      sdk_name: random() < 0.5 ? 'pp-node' : null,
      sdk_version: random() < 0.5 ? '1.2.3' : null,
      key_id: random() < 0.5 ? `pk_${hex(10)}` : null,
      release: random() < 0.3 ? pick(TEXTS) || 'v1' : null,
      url,
      path: url ? `/p/${i}` : null,
      referrer: random() < 0.2 ? 'https://search.example/?q=a%20b' : null,
      props: random() < 0.15 ? null : { n: i, text: pick(TEXTS), nested: { list: [1, 'two', null, { deep: pick(TEXTS) }], flag: random() < 0.5 }, big: 2 ** 70, small: 1e-9 },
      revenue: pick(REVENUES),
      elements: random() < 0.2 ? [{ tag: 'button', id: 'buy', classes: ['btn', 'primary'], text: pick(TEXTS) || 'Buy', attributes: { 'data-plan': 'pro' } }] : null,
      invalid,
      invalid_reasons: invalid ? pick([['revenue_not_numeric'], ['ts_in_future', 'revenue_not_numeric']]) : [],
      rule_id: source ? 1 + Math.floor(random() * 3) : null,
      source_uuid: source ? (source.uuid as string) : null,
    });
  }
  return rows;
}

const ndjson = (rows: Array<Record<string, unknown>>) => Buffer.from(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

interface Side {
  server: TestServer;
  token: string;
  projectId: number;
  orgId: number;
}

async function side(server: TestServer): Promise<Side> {
  const { owner, org, project } = await createTenant(server, { timezone: ZONE });
  return { server, token: await accessTokenFor(server, owner, org), projectId: project.id, orgId: org.id };
}

async function exported(s: Side, body: object = {}, projectId = s.projectId): Promise<{ job: any; file: Buffer }> {
  const started = await s.server.request('POST', exportsPath(projectId), { token: s.token, body });
  if (started.status !== 202) throw new Error(`export answered ${started.status}: ${started.text}`);
  const job = await jobEnded(s.server, s.token, `${exportsPath(projectId)}/${started.body.id}`);
  if (job.state !== 'succeeded') throw new Error(`export ${job.state}: ${job.error}`);
  const res = await fetch(s.server.url + job.download_url);
  if (res.status !== 200) throw new Error(`download answered ${res.status}`);
  return { job, file: Buffer.from(await res.arrayBuffer()) };
}

async function imported(s: Side, file: Buffer, format: string, projectId = s.projectId): Promise<any> {
  const job = await jobEnded(s.server, s.token, `${importsPath(projectId)}/${(await upload(s.server, s.token, projectId, file, format)).id}`);
  if (job.state !== 'succeeded') throw new Error(`import ${job.state}: ${job.error}`);
  return job;
}

/** A text export's lines sorted (a CSV's header kept first): the rows compared byte for byte, whatever their order. */
function sortedLines(file: Buffer, header: boolean): string[] {
  const lines = file.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const head = header ? lines.splice(0, 1) : [];
  return [...head, ...lines.sort()];
}

/** A Parquet file's schema and rows (sorted), as DuckDB reads them. */
async function parquetContent(file: Buffer): Promise<{ schema: unknown; rows: string[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-parquet-'));
  const at = path.join(dir, 'x.parquet');
  try {
    writeFileSync(at, file);
    const instance = await DuckDBInstance.create(':memory:');
    const conn = await instance.connect();
    await conn.run("SET TimeZone = 'UTC'");
    const schema = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${at}')`)).getRowObjectsJson();
    const rows = (await conn.runAndReadAll(`SELECT to_json(p)::VARCHAR AS j FROM read_parquet('${at}') AS p`)).getRowObjectsJson().map((r) => String(r.j));
    conn.closeSync();
    instance.closeSync();
    return { schema, rows: rows.sort() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Whether an NDJSON export's rows go in the order of (event time, uuid). */
function inTimeOrder(file: Buffer): boolean {
  const keys = file
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ts: string; uuid: string });
  return keys.every((k, i) => i === 0 || keys[i - 1]!.ts < k.ts || (keys[i - 1]!.ts === k.ts && keys[i - 1]!.uuid < k.uuid));
}

/** The whole history, the day whose midnight is repeated, the day whose midnight is skipped, days up to one and from one. */
const RANGES = [{}, { from: '2026-04-05', to: '2026-04-05' }, { from: '2026-09-06', to: '2026-09-06' }, { to: '2026-04-04' }, { from: '2026-04-06' }];

t.test('exports on ClickHouse write what DuckDB writes', async (t) => {
  const rows = history(260, 7);
  const file = ndjson(rows);

  const duck = await side(await startTestServer(t));
  const ch = await startClickHouse(t, 'single');
  const chServer = await startTestServer(t, { settings: { 'events.engine': 'clickhouse', 'clickhouse.urls': ch.urls.join(','), 'clickhouse.database': DATABASE } });
  const click = await side(chServer);
  t.match(await imported(duck, file, 'ndjson'), { stored: rows.length, rejected: 0 });
  t.match(await imported(click, file, 'ndjson'), { stored: rows.length, rejected: 0 });

  const reference = new Map<string, Buffer>();
  for (const format of ['ndjson', 'csv'] as const) {
    for (const range of format === 'ndjson' ? RANGES : [RANGES[0]!]) {
      const a = await exported(duck, { format, ...range });
      const b = await exported(click, { format, ...range });
      reference.set(`${format} ${JSON.stringify(range)}`, b.file);
      t.equal(b.job.events, a.job.events, `${format} ${JSON.stringify(range)}: as many events (${a.job.events})`);
      t.same(sortedLines(b.file, format === 'csv'), sortedLines(a.file, format === 'csv'), `${format} ${JSON.stringify(range)}: every row the same bytes`);
      t.equal(b.job.bytes, a.job.bytes, `${format} ${JSON.stringify(range)}: as many bytes`);
    }
  }
  const whole = reference.get('ndjson {}')!;
  t.equal(whole.toString('utf8').trim().split('\n').length, rows.length, 'every event once');
  t.ok(inTimeOrder(whole), 'ClickHouse writes in the order of event time and uuid');
  const ranged = RANGES.slice(1).map(
    (r) =>
      reference
        .get(`ndjson ${JSON.stringify(r)}`)!
        .toString('utf8')
        .trim()
        .split('\n')
        .filter(Boolean).length,
  );
  t.ok(
    ranged.every((n) => n > 0 && n < rows.length),
    `each range holds some events, not all (${ranged.join(', ')})`,
  );

  for (const range of [{}]) {
    const a = await exported(duck, { format: 'parquet', ...range });
    const b = await exported(click, { format: 'parquet', ...range });
    t.equal(b.file.subarray(0, 4).toString('latin1'), 'PAR1');
    t.equal(b.job.events, a.job.events);
    t.same(await parquetContent(b.file), await parquetContent(a.file), `parquet ${JSON.stringify(range)}: the same columns and rows`);
  }

  const services = chServer.running.services;
  const planOf = (format: 'ndjson' | 'csv' | 'parquet', range: { from?: string; to?: string }, out: string) =>
    statementsOf(services.events).transfer.exportPlan({ projectId: click.projectId, timezone: ZONE, from: range.from ?? null, to: range.to ?? null, format, file: out }) as PagedExport;
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'pp-export-pages-'));
  t.teardown(() => rmSync(scratch, { recursive: true, force: true }));
  const read = (s: { sql: string }) => services.events.read(s.sql, [], { timeoutMs: 30_000 });
  const small = async (range: { from?: string; to?: string }, pageRows: number, name: string) => {
    const out = path.join(scratch, name);
    const pages: number[] = [];
    const events = await writePagedExport(planOf('ndjson', range, out), {
      projectId: click.projectId,
      format: 'ndjson',
      file: out,
      read,
      pageRows,
      progress: (n) => pages.push(n),
    });
    return { events, pages, file: readFileSync(out) };
  };

  t.test('pages cut small write the same file', async (t) => {
    const tie = rows.filter((r) => r.ts === new Date(TIE).toISOString()).length;
    t.ok(tie > 20 * 2, `a second holds several pages of ties (${tie} events)`);
    for (const range of [RANGES[0]!]) {
      const { events, pages, file } = await small(range, 20, 'small.ndjson');
      t.equal(file.toString('utf8'), reference.get(`ndjson ${JSON.stringify(range)}`)!.toString('utf8'), `${JSON.stringify(range)}: the same bytes`);
      t.equal(events, pages.at(-1));
      t.ok(pages.length > events / 20, `${pages.length} pages`);
    }
    t.same(
      readdirSync(scratch).filter((n) => n.includes('staging')),
      [],
      'the staging database is removed',
    );
  });

  t.test('a cancelled export stops between pages and leaves no staging behind', async (t) => {
    const out = path.join(scratch, 'cancelled.ndjson');
    let pages = 0;
    await t.rejects(
      writePagedExport(planOf('ndjson', {}, out), {
        projectId: click.projectId,
        format: 'ndjson',
        file: out,
        read,
        pageRows: 7,
        progress: () => {
          pages += 1;
          if (pages === 2) throw new Error('cancelled');
        },
      }),
      /cancelled/,
    );
    t.equal(pages, 2);
    t.notOk(existsSync(`${out}.staging`) || existsSync(`${out}.staging.wal`), 'no staging database');
  });

  t.test('rows stored twice before parts merge are written once', async (t) => {
    const node = ch.nodes[0]!;
    await node.query('SYSTEM STOP MERGES');
    await node.query(`INSERT INTO ${DATABASE}.events SELECT * FROM ${DATABASE}.events WHERE project_id = ${click.projectId}`);
    const [stored, distinct] = (await node.query(`SELECT count(), uniqExact(uuid) FROM ${DATABASE}.events WHERE project_id = ${click.projectId} FORMAT TSV`)).trim().split('\t').map(Number);
    t.equal(stored, 2 * distinct!, 'every row stored twice');
    t.equal((await exported(click)).file.toString('utf8'), whole.toString('utf8'), 'the same file');
    await node.query('SYSTEM START MERGES');
  });

  t.test('round trips', async (t) => {
    // Into a fresh project of the same ClickHouse server: the same bytes.
    for (const format of ['ndjson'] as const) {
      const copy = createProject(services.meta, { orgId: click.orgId, name: `Copy ${format}`, timezone: ZONE }, services.clock.now());
      t.match(await imported(click, reference.get(`${format} {}`)!, format, copy.id), { stored: rows.length, rejected: 0 });
      t.equal((await exported(click, { format: 'ndjson' }, copy.id)).file.toString('utf8'), whole.toString('utf8'), `${format}: the copy on ClickHouse exports the same bytes`);
    }
    // Into the DuckDB server: what DuckDB exported of the same history.
    const duckServices = duck.server.running.services;
    const copy = createProject(duckServices.meta, { orgId: duck.orgId, name: 'From ClickHouse', timezone: ZONE }, duckServices.clock.now());
    await imported(duck, whole, 'ndjson', copy.id);
    const back = await exported(duck, {}, copy.id);
    t.equal(back.file.toString('utf8'), whole.toString('utf8'), 'imported into DuckDB in its order, DuckDB exports the same bytes');
    t.same(sortedLines(back.file, false), sortedLines((await exported(duck)).file, false), 'and the rows of the DuckDB export of the history');
  });

  t.test("a person's deletion is respected", async (t) => {
    const person = rows.find((r) => r.user_id === null && r.rule_id === null)!.anonymous_id as string;
    for (const s of [duck, click]) {
      const deletion = await s.server.request('DELETE', `/api/v1/projects/${s.projectId}/persons/${encodeURIComponent(person)}`, { token: s.token });
      t.equal(deletion.status, 202, deletion.text);
      const job = await eventually(
        'the deletion to finish',
        async () => (await s.server.request('GET', `/api/v1/projects/${s.projectId}/person-deletions/${deletion.body.id}`, { token: s.token })).body,
        (j) => j.state === 'succeeded' || j.state === 'failed',
        60_000,
      );
      t.equal(job.state, 'succeeded', job.error ?? '');
    }
    const a = await exported(duck);
    const b = await exported(click);
    t.ok(b.job.events < rows.length, `fewer events (${b.job.events})`);
    t.notOk(b.file.toString('utf8').includes(`"${person}"`), 'none names the person');
    t.same(sortedLines(b.file, false), sortedLines(a.file, false), 'as on DuckDB');
  });
});

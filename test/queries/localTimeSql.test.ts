// The local time the query SQL computes by arithmetic on the epoch (and, for rows older than the
// arithmetic span of an all-history scan, through DuckDB's ICU) against the runtime's own
// conversion, on random instants from 1971 to 2045 in zones with DST, half-hour and odd offsets.

import t from 'tap';
import fc from 'fast-check';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { scanEvents } from '../../server/engine/eventScan.js';
import { Binder } from '../../server/engine/sql.js';
import { addDays, fromDayNumber } from '../../server/engine/dates.js';

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Sydney', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/Santiago', 'Pacific/Chatham', 'America/St_Johns', 'UTC'];
const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

function localParts(ms: number, tz: string): { date: string; minuteMs: number } {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', minute: '2-digit', second: '2-digit' });
    formats.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, minuteMs: (Number(parts.minute) * 60 + Number(parts.second)) * 1000 + (ms % 1000) };
}

let conn: DuckDBConnection;

t.before(async () => {
  conn = await (await DuckDBInstance.create(':memory:')).connect();
  await conn.run("SET TimeZone = 'UTC'");
  await conn.run('CREATE TABLE events (project_id INTEGER, ts TIMESTAMPTZ, distinct_id VARCHAR)');
  await conn.run('CREATE TABLE identity_links (project_id INTEGER, distinct_id VARCHAR, actor_id VARCHAR)');
});

t.teardown(() => conn.closeSync());

/** Local date and hour start of every stored instant, as one scan computes them. */
async function scanned(timezone: string, to: string, from?: string): Promise<Map<number, { day: string; hourStart: number }>> {
  const b = new Binder();
  const sql = scanEvents(b, (local) => ({ t: 'epoch_ms(e.ts)', day: `CAST(${local.day} AS VARCHAR)`, hour_start: local.hourStart }), {
    projectId: 1,
    timezone,
    from,
    to,
  });
  const rows = (await conn.runAndReadAll(sql, b.values)).getRowObjects();
  return new Map(rows.map((r) => [Number(r.t), { day: String(r.day), hourStart: Number(r.hour_start) }]));
}

const instant = fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2045, 0, 1) });

t.test('local dates and hour starts match the runtime, with and without a lower bound', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ZONES), fc.array(instant, { minLength: 1, maxLength: 60 }), async (tz, instants) => {
      await conn.run('DELETE FROM events');
      const distinct = [...new Set(instants)];
      await conn.run(`INSERT INTO events SELECT 1, make_timestamptz(ms * 1000), 'd' FROM (SELECT unnest([${distinct.join(',')}]::BIGINT[]) AS ms)`);
      const last = localParts(Math.max(...distinct), tz).date;
      const first = localParts(Math.min(...distinct), tz).date;
      // All history (rows far before the end go through ICU), then a bounded range.
      const all = await scanned(tz, last);
      const bounded = await scanned(tz, last, first);
      for (const ms of distinct) {
        const want = localParts(ms, tz);
        for (const [name, got] of [
          ['all history', all.get(ms)],
          ['bounded', bounded.get(ms)],
        ] as const) {
          if (got?.day !== want.date || got.hourStart !== ms - want.minuteMs) {
            t.fail(`${name} ${tz} ${new Date(ms).toISOString()}: got ${JSON.stringify(got)}, want ${want.date} / ${ms - want.minuteMs}`);
            return false;
          }
        }
      }
      return true;
    }),
    { numRuns: 30 },
  );
  t.pass('checked');
});

t.test('every instant around each DST change of a year gets its own local date', async (t) => {
  for (const tz of ['America/New_York', 'Australia/Lord_Howe', 'America/Santiago']) {
    await conn.run('DELETE FROM events');
    const start = Date.UTC(2026, 0, 1);
    const instants: number[] = [];
    // Every 10 minutes of the year: local midnights, repeated and skipped hours all included.
    for (let ms = start; ms < start + 365 * DAY_MS; ms += 600_000) instants.push(ms);
    await conn.run(`INSERT INTO events SELECT 1, make_timestamptz(ms * 1000), 'd' FROM (SELECT unnest(range(${start}::BIGINT, ${start + 365 * DAY_MS}::BIGINT, 600000)) AS ms)`);
    const got = await scanned(tz, fromDayNumber(start / DAY_MS + 366), addDays('2026-01-01', -1));
    let wrong = 0;
    for (const ms of instants) if (got.get(ms)?.day !== localParts(ms, tz).date) wrong += 1;
    t.equal(wrong, 0, `${tz}: ${instants.length} instants`);
  }
});

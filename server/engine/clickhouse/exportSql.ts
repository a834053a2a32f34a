// The ClickHouse statements of an export (server/transfer/exportJob.ts). ClickHouse writes no file
// pp can use (18.16 has no Parquet output, and its JSON and CSV differ from DuckDB's), so the export
// is read as pages and written by the job through DuckDB's own statement (engine/duckdb/exportSql.ts),
// the bytes of each field the same as on DuckDB. The pages go in the order of (event time, uuid):
// each is a keyset read of one window of event time (`countsSql` tells the job where to cut the
// windows so that each holds about a page), so no read scans past its window and each keeps the
// engine's time limit however large the project. Rows stored twice before their parts merged are
// read once (FINAL: the copies share the sorting key, which ends in the uuid); rows a person's
// deletion or a purge removed are gone from the table once their mutation finished.
//
// The selection's local days become instants as DuckDB computes them: a day starts at the first
// instant of its date in the zone (`dayStartMs`, where DST moves midnight too), the bound on the
// microseconds exact, the one on the DateTime there for the parts and granules ClickHouse skips.

import type { Statement } from '../engine.js';
import type { ExportCursor, ExportPlan, ExportSelection, ExportWindow } from '../duckdb/exportSql.js';
import { addDays } from '../dates.js';
import { dayStartMs } from '../localTime.js';
import { literal } from './literal.js';

/** The second after the last a DateTime holds (2106-02-07 06:28:16 UTC). */
const DATETIME_END = 2 ** 32;

const MICROS = '(toUInt64(ts) * 1000000 + ts_us)';

/** The fields of a row of a page (`PagedExportRow`): aliases other than the columns' names, which an alias would shadow. */
const FIELDS = `toString(uuid) AS uuid_text, toString(${MICROS}) AS ts_micros, toString(toUInt64(received_at) * 1000000 + received_us) AS received_micros,
  event, distinct_id, anonymous_id, user_id, session_id, source, sdk_name, sdk_version, nullIf(key_id, '') AS key_text, release, url, path, referrer,
  props, revenue, elements, invalid, invalid_reasons, toString(rule_id) AS rule_text, toString(source_uuid) AS source_text`;

export function exportPlan(s: ExportSelection): ExportPlan {
  // The selection in µs since the epoch, as DuckDB bounds it: from the first local day's start to the start of the day after the last.
  const fromUs = s.from ? BigInt(dayStartMs(s.from, s.timezone)) * 1000n : null;
  const toUs = s.to ? BigInt(dayStartMs(addDays(s.to, 1), s.timezone)) * 1000n : null;
  // The window in whole seconds holding the selection (no stored event is before 1970 or past a DateTime's end).
  const first = fromUs === null || fromUs <= 0n ? 0 : Number(fromUs / 1_000_000n);
  const end = toUs === null ? DATETIME_END : toUs <= 0n ? 0 : Math.min(DATETIME_END, Number((toUs + 999_999n) / 1_000_000n));
  const exact = [...(fromUs !== null && fromUs > 0n ? [`${MICROS} >= ${literal(fromUs)}`] : []), ...(toUs !== null && toUs > 0n ? [`${MICROS} < ${literal(toUs)}`] : [])];

  const within = (w: ExportWindow) => [
    `project_id = ${literal(s.projectId)}`,
    ...(w.from > 0 ? [`ts >= toDateTime(${literal(w.from)}, 'UTC')`] : []),
    ...(w.to < DATETIME_END ? [`ts < toDateTime(${literal(w.to)}, 'UTC')`] : []),
    ...exact,
  ];

  return {
    kind: 'pages',
    window: { from: first, to: end },
    countsSql(w: ExportWindow, seconds: number): Statement {
      return {
        sql: `SELECT intDiv(toUInt32(ts), ${literal(seconds)}) * ${literal(seconds)} AS bucket, count() AS n FROM events WHERE ${within(w).join(' AND ')} GROUP BY bucket ORDER BY bucket`,
        params: [],
      };
    },
    pageSql(w: ExportWindow, after: ExportCursor | null, limit: number): Statement {
      const where = within(w);
      if (after) {
        const us = literal(BigInt(after.us));
        where.push(`(${MICROS} > ${us} OR (${MICROS} = ${us} AND toString(uuid) > ${literal(after.uuid)}))`);
      }
      return { sql: `SELECT ${FIELDS} FROM events FINAL WHERE ${where.join(' AND ')} ORDER BY ${MICROS}, uuid_text LIMIT ${literal(limit)}`, params: [] };
    },
  };
}

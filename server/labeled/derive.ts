// Deriving labeled events (docs/labeled-events.md#derived-events): the rows a rule adds for the
// events it matches. Over all history of a project by SQL from the matching rows themselves (the
// sync job, sync.ts); for events as they are stored, by the ingest writer, which appends the rows
// `deriveStored` makes in the transaction that appends their sources, so a stored event and its
// labels commit together. Every statement that matches a rule has the time limit of a query
// (query_timeout_ms).

import { createHash } from 'node:crypto';
import { BIGINT, INTEGER, type DuckDBConnection, type DuckDBMaterializedResult, type DuckDBValue } from '@duckdb/node-api';
import type { Services } from '../http/services.js';
import type { EventRow } from '../ingest/normalizeEvent.js';
import { ELEMENT_COLUMNS, elementColumnSql } from '../ingest/elementColumns.js';
import { Binder } from '../engine/sql.js';
import { readEvents } from '../events/timeLimit.js';
import { ruleCondition } from './matchSql.js';
import { activeRulesOf, type StoredRule } from './rules.js';

/** The columns a derived event fills; the others (revenue, elements, element columns) stay NULL. */
const DERIVED_COLUMNS = [
  'project_id', 'uuid', 'ts', 'received_at', 'event', 'distinct_id', 'anonymous_id', 'user_id', 'session_id', 'source', 'sdk_name', 'sdk_version',
  'key_id', 'release', 'url', 'path', 'referrer', 'props', 'invalid', 'invalid_reasons', 'rule_id', 'source_uuid', 'distinct_key',
] as const;

/**
 * A derived event's uuid: the md5 of its source's uuid and its rule's id read as a uuid, so
 * deriving again gives the same events.
 */
const derivedUuid = (source: string, rule: string) => `CAST(md5(CAST(${source} AS VARCHAR) || ':' || CAST(${rule} AS VARCHAR)) AS UUID)`;

/** `SELECT` of the events `rule` derives from the rows of `from` (aliased `e`) that match it. */
function derivedRows(b: Binder, rule: StoredRule, from: string, urls: () => string): string {
  const ruleId = `CAST(${b.bind(rule.id)} AS BIGINT)`;
  const values: Record<string, string> = { uuid: derivedUuid('e.uuid', ruleId), event: b.bind(rule.event_name), source: "'system'", rule_id: ruleId, source_uuid: 'e.uuid' };
  return `SELECT ${DERIVED_COLUMNS.map((c) => values[c] ?? `e.${c}`).join(', ')} FROM ${from} e WHERE ${ruleCondition(b, rule, urls)}`;
}

const INSERT = `INSERT INTO events (${DERIVED_COLUMNS.join(', ')})`;

/**
 * The project's events of one name, as rules match them: events stored before the element
 * columns existed (NULL there) get them from their chain, computed once per row.
 */
function candidates(b: Binder, projectId: number, event: string, where = ''): string {
  const filled = ELEMENT_COLUMNS.map((c) => `coalesce(${c}, ${elementColumnSql(c, 'elements')}) AS ${c}`).join(', ');
  return `(SELECT * REPLACE (${filled}) FROM events e
    WHERE project_id = ${b.bind(projectId)} AND event = ${b.bind(event)} AND rule_id IS NULL${where ? ` AND ${where}` : ''})`;
}

/** The distinct URLs of the project's events of the rule's base event (what url_pattern is matched on). */
const baseUrls = (b: Binder, rule: Pick<StoredRule, 'project_id' | 'base_event'>) => () =>
  `SELECT DISTINCT url FROM events WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL`;

/** DuckDB ignores an interrupt that arrives before a statement executes: repeated this often until it stops. */
const INTERRUPT_REPEAT_MS = 5;

/** Why a derivation job failed when one of its statements ran past the time limit. */
class DerivationTimeoutError extends Error {
  constructor(readonly limitMs: number) {
    super(`matching the rule over the project's events exceeded the ${limitMs} ms time limit of a statement (query_timeout_ms); nothing was changed`);
  }
}

/**
 * Runs one statement of a derivation job on the job's connection, interrupted once `limitMs`
 * passes, so a rule slow to match fails its job instead of holding the writer (and ingestion).
 */
async function runWithin(conn: DuckDBConnection, limitMs: number, sql: string, values: DuckDBValue[]): Promise<DuckDBMaterializedResult> {
  let late = false;
  let repeat: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    late = true;
    conn.interrupt();
    repeat = setInterval(() => conn.interrupt(), INTERRUPT_REPEAT_MS);
  }, limitMs);
  try {
    const result = await conn.run(sql, values);
    if (late) throw new DerivationTimeoutError(limitMs);
    return result;
  } catch (err) {
    if (late) throw new DerivationTimeoutError(limitMs);
    throw err;
  } finally {
    clearTimeout(timer);
    clearInterval(repeat);
  }
}

/**
 * Brings what an active rule derived over all the project's history in line with the rule as it is
 * now, in the caller's transaction: deletes the derived events whose source it no longer matches
 * (or that carry an earlier event name), then derives those missing. Events the ingest writer
 * labeled since the rule last changed are already right and stay where they are, so the common
 * case (a rule just created or enabled while events arrive) deletes nothing, and the rollups and
 * the rowids the folder relies on stay as they are. Answers what it deleted and how many events
 * the rule labels afterwards. Each matching statement stops after `limitMs`
 * (DerivationTimeoutError), and the caller then rolls back.
 */
export async function reconcileDerived(conn: DuckDBConnection, rule: StoredRule, limitMs: number): Promise<{ deleted: number; labeled: number }> {
  const count = await conn.runAndReadAll('SELECT count(*) AS n FROM events WHERE project_id = $1 AND rule_id = $2', [rule.project_id, BigInt(rule.id)], [INTEGER, BIGINT]);
  const before = Number(count.getRowObjects()[0]!.n);
  let deleted = 0;
  if (before > 0) {
    const b = new Binder();
    const ruleId = `CAST(${b.bind(rule.id)} AS BIGINT)`;
    const matching = `SELECT e.uuid FROM ${candidates(b, rule.project_id, rule.base_event)} e WHERE ${ruleCondition(b, rule, baseUrls(b, rule))}`;
    const result = await runWithin(
      conn,
      limitMs,
      `DELETE FROM events WHERE project_id = ${b.bind(rule.project_id)} AND rule_id = ${ruleId}
        AND (event <> ${b.bind(rule.event_name)} OR source_uuid NOT IN (${matching}))`,
      b.values,
    );
    deleted = Number(result.rowsChanged);
  }
  const b = new Binder();
  const unlabeled = `NOT EXISTS (SELECT 1 FROM events x WHERE x.project_id = ${b.bind(rule.project_id)} AND x.rule_id = CAST(${b.bind(rule.id)} AS BIGINT) AND x.source_uuid = e.uuid)`;
  const inserted = await runWithin(conn, limitMs, `${INSERT} ${derivedRows(b, rule, candidates(b, rule.project_id, rule.base_event, unlabeled), baseUrls(b, rule))}`, b.values);
  return { deleted, labeled: before - deleted + Number(inserted.rowsChanged) };
}

/** Deletes what a rule derived; answers how many. In the caller's transaction. */
export async function deleteDerived(conn: DuckDBConnection, projectId: number, ruleId: number): Promise<number> {
  const result = await conn.run('DELETE FROM events WHERE project_id = $1 AND rule_id = $2', [projectId, BigInt(ruleId)], [INTEGER, BIGINT]);
  return Number(result.rowsChanged);
}

/** How many events each rule of the project labels now (derived over history, and since as events arrived). */
export async function labeledCounts(services: Services, projectId: number): Promise<Map<number, number>> {
  const rows = await services.events.read('SELECT rule_id, count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NOT NULL GROUP BY rule_id', [projectId]);
  return new Map(rows.map((r) => [Number(r.rule_id), Number(r.n)]));
}

/** How many events of the project a rule matches with `ts` in (from, to]: nothing written; 408 `query_timeout` past the time limit. */
export async function countMatching(services: Services, rule: Omit<StoredRule, 'id' | 'event_name' | 'state'>, from: Date, to: Date): Promise<number> {
  const b = new Binder();
  const range = () => `e.ts > CAST(${b.bind(from.toISOString())} AS TIMESTAMPTZ) AND e.ts <= CAST(${b.bind(to.toISOString())} AS TIMESTAMPTZ)`;
  const urls = () => `SELECT DISTINCT url FROM events e WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL AND ${range()}`;
  const [row] = await readEvents(services, `SELECT count(*) AS n FROM ${candidates(b, rule.project_id, rule.base_event, range())} e WHERE ${ruleCondition(b, rule, urls)}`, b.values);
  return Number(row?.n ?? 0);
}

/** The uuid `derivedUuid` gives in SQL, computed here. */
function derivedUuidOf(source: string, ruleId: number): string {
  const h = createHash('md5').update(`${source}:${ruleId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The label of `row` by `rule`, field by field (a spread of the row costs ten times more). */
function labelOf(row: EventRow, rule: StoredRule): EventRow {
  return {
    project_id: row.project_id,
    uuid: derivedUuidOf(row.uuid, rule.id),
    ts: row.ts,
    received_at: row.received_at,
    event: rule.event_name,
    distinct_id: row.distinct_id,
    anonymous_id: row.anonymous_id,
    user_id: row.user_id,
    session_id: row.session_id,
    source: 'system',
    sdk_name: row.sdk_name,
    sdk_version: row.sdk_version,
    key_id: row.key_id,
    release: row.release,
    url: row.url,
    path: row.path,
    referrer: row.referrer,
    props: row.props,
    revenue: null,
    elements: null,
    invalid: row.invalid,
    invalid_reasons: row.invalid_reasons,
    distinct_key: row.distinct_key,
    props_value: row.props_value,
    rule_id: rule.id,
    source_uuid: row.uuid,
  };
}

/**
 * The labels of `rows`, about to be stored, for the active rules of their projects, as rows the
 * writer appends with them (matchRow.ts). Costs nothing when no row is the base event of an
 * active rule of its project.
 */
export function deriveStored(services: Services, rows: readonly EventRow[]): EventRow[] {
  const active = activeRulesOf(services);
  if (active.size === 0) return [];
  const out: EventRow[] = [];
  const pages = new Map<string, string | null>();
  for (const row of rows) {
    const rules = active.get(row.project_id)?.get(row.event);
    if (!rules) continue;
    const view = { row, pages };
    for (const rule of rules) if (rule.matches(view)) out.push(labelOf(row, rule));
  }
  return out;
}

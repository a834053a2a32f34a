// Deriving labeled events (docs/labeled-events.md#derived-events): the rows a rule adds for the
// events it matches, written by SQL from the matching rows themselves. Over all history of a
// project (the sync job, sync.ts), and for events as they are stored (the ingest writer calls
// `deriveStored` inside the transaction that appends them, so a stored event and its labels
// commit together).

import { BIGINT, INTEGER, LIST, TIMESTAMPTZ, VARCHAR, listValue, timestampTZValue, type DuckDBConnection, type DuckDBType, type DuckDBValue } from '@duckdb/node-api';
import type { Services } from '../services.js';
import { committedEvent, type EventRow } from '../ingest/normalizeEvent.js';
import type { CommittedEvent } from '../ingest/eventBus.js';
import { Binder } from '../queries/sql.js';
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
export const derivedUuid = (source: string, rule: string) => `CAST(md5(CAST(${source} AS VARCHAR) || ':' || CAST(${rule} AS VARCHAR)) AS UUID)`;

/** `SELECT` of the events `rule` derives from the rows of `from` (aliased `e`) that match it. */
function derivedRows(b: Binder, rule: StoredRule, from: string, urls: () => string): string {
  const ruleId = `CAST(${b.bind(rule.id)} AS BIGINT)`;
  const values: Record<(typeof DERIVED_COLUMNS)[number], string> = {
    project_id: 'e.project_id',
    uuid: derivedUuid('e.uuid', ruleId),
    ts: 'e.ts',
    received_at: 'e.received_at',
    event: b.bind(rule.event_name),
    distinct_id: 'e.distinct_id',
    anonymous_id: 'e.anonymous_id',
    user_id: 'e.user_id',
    session_id: 'e.session_id',
    source: "'system'",
    sdk_name: 'e.sdk_name',
    sdk_version: 'e.sdk_version',
    key_id: 'e.key_id',
    release: 'e.release',
    url: 'e.url',
    path: 'e.path',
    referrer: 'e.referrer',
    props: 'e.props',
    invalid: 'e.invalid',
    invalid_reasons: 'e.invalid_reasons',
    rule_id: ruleId,
    source_uuid: 'e.uuid',
    distinct_key: 'e.distinct_key',
  };
  return `SELECT ${DERIVED_COLUMNS.map((c) => values[c]).join(', ')} FROM ${from} e
    WHERE e.project_id = ${b.bind(rule.project_id)} AND e.rule_id IS NULL AND ${ruleCondition(b, rule, urls)}`;
}

const INSERT = `INSERT INTO events (${DERIVED_COLUMNS.join(', ')})`;

/** Derives a rule's events over all the project's history; answers how many. In the caller's transaction. */
export async function deriveAll(conn: DuckDBConnection, rule: StoredRule): Promise<number> {
  const b = new Binder();
  const urls = () => `SELECT DISTINCT url FROM events WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL`;
  const result = await conn.run(`${INSERT} ${derivedRows(b, rule, 'events', urls)}`, b.values);
  return Number(result.rowsChanged);
}

/** Deletes what a rule derived; answers how many. In the caller's transaction. */
export async function deleteDerived(conn: DuckDBConnection, projectId: number, ruleId: number): Promise<number> {
  const result = await conn.run('DELETE FROM events WHERE project_id = $1 AND rule_id = $2', [projectId, BigInt(ruleId)], [INTEGER, BIGINT]);
  return Number(result.rowsChanged);
}

/** How many events of the project a rule matches with `ts` in (from, to]: nothing written. */
export async function countMatching(services: Services, rule: Omit<StoredRule, 'id' | 'event_name' | 'state'>, from: Date, to: Date): Promise<number> {
  const b = new Binder();
  const range = () => `e.ts > CAST(${b.bind(from.toISOString())} AS TIMESTAMPTZ) AND e.ts <= CAST(${b.bind(to.toISOString())} AS TIMESTAMPTZ)`;
  const urls = () => `SELECT DISTINCT url FROM events e WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL AND ${range()}`;
  const [row] = await services.events.read(
    `SELECT count(*) AS n FROM events e WHERE e.project_id = ${b.bind(rule.project_id)} AND e.rule_id IS NULL AND ${range()} AND ${ruleCondition(b, rule, urls)}`,
    b.values,
  );
  return Number(row?.n ?? 0);
}

/**
 * Derives the labels of `rows`, just appended in the caller's open transaction, for the active
 * rules of their projects; answers the derived rows (for the live stream). Costs nothing when no
 * row is the base event of an active rule of its project.
 */
export async function deriveStored(services: Services, conn: DuckDBConnection, rows: readonly EventRow[]): Promise<CommittedEvent[]> {
  const active = activeRulesOf(services);
  if (active.size === 0) return [];
  const candidates = rows.filter((r) => active.get(r.project_id)?.some((rule) => rule.base_event === r.event));
  if (candidates.length === 0) return [];
  const rules = [...new Set(candidates.map((r) => r.project_id))].flatMap((p) => active.get(p)!);
  const b = new Binder();
  let first = Infinity;
  let last = -Infinity;
  for (const r of candidates) {
    first = Math.min(first, r.received_at.getTime());
    last = Math.max(last, r.received_at.getTime());
  }
  const bounds: Array<[DuckDBValue, DuckDBType]> = [
    [timestampTZValue(BigInt(first) * 1000n), TIMESTAMPTZ],
    [timestampTZValue(BigInt(last) * 1000n), TIMESTAMPTZ],
    [listValue(candidates.map((r) => r.uuid)), LIST(VARCHAR)],
    [listValue([...new Set(candidates.map((r) => r.project_id))]), LIST(INTEGER)],
  ];
  for (const [v] of bounds) b.bind(v);
  // The appended rows are found again by receipt time (row groups skipped by their bounds) and uuid.
  const fresh = `c AS MATERIALIZED (SELECT * FROM events WHERE received_at BETWEEN $1 AND $2 AND project_id IN (SELECT unnest($4))
    AND rule_id IS NULL AND uuid IN (SELECT unnest($3)::UUID))`;
  const urls = () => 'SELECT DISTINCT url FROM c WHERE url IS NOT NULL';
  const selects = rules.filter((rule) => candidates.some((r) => r.project_id === rule.project_id && r.event === rule.base_event)).map((rule) => derivedRows(b, rule, 'c', urls));
  // Types for the bounds; the rules' values are inferred.
  const types = bounds.map(([, t]) => t);
  const reader = await conn.runAndReadAll(
    `${INSERT} WITH ${fresh} ${selects.join(' UNION ALL ')} RETURNING uuid::VARCHAR AS uuid, source_uuid::VARCHAR AS source, event`,
    b.values,
    types,
  );
  const byUuid = new Map(candidates.map((r) => [r.uuid, r]));
  return reader.getRowObjects().map((d) => ({
    ...committedEvent(byUuid.get(String(d.source))!),
    uuid: String(d.uuid),
    event: String(d.event),
    source: 'system',
    revenue: null,
  }));
}

// Deriving labeled events (docs/labeled-events.md#derived-events): the rows a rule adds for the
// events it matches. Over all history of a project by the engine from the matching rows
// themselves (the sync job, sync.ts, with engine/<kind>/labeledSql.ts); for events as they are
// stored, by the ingest writer, which appends the rows `deriveStored` makes in the transaction
// that appends their sources, so a stored event and its labels commit together. Every statement that matches a rule has the time limit of a query
// (query_timeout_ms).

import { createHash } from 'node:crypto';
import type { Services } from '../http/services.js';
import type { EventRow } from '../ingest/normalizeEvent.js';
import { statementsOf } from '../engine/statements.js';
import { readEvents } from '../events/timeLimit.js';
import { matchOf } from './matchSql.js';
import { activeRulesOf, type StoredRule } from './rules.js';

/** How many events each rule of the project labels now (derived over history, and since as events arrived). */
export async function labeledCounts(services: Services, projectId: number): Promise<Map<number, number>> {
  const counts = statementsOf(services.events).labeled.labeledCountsSql(projectId);
  const rows = await services.events.read(counts.sql, counts.params);
  return new Map(rows.map((r) => [Number(r.rule_id), Number(r.n)]));
}

/** How many events of the project a rule matches with `ts` in (from, to]: nothing written; 408 `query_timeout` past the time limit. */
export async function countMatching(services: Services, rule: Omit<StoredRule, 'id' | 'event_name' | 'state'>, from: Date, to: Date): Promise<number> {
  const [row] = await readEvents(services, statementsOf(services.events).labeled.countMatchingSql(matchOf(rule), from, to));
  return Number(row?.n ?? 0);
}

/** The uuid the engine gives a derived event (md5 of the source's uuid and the rule id), computed here. */
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

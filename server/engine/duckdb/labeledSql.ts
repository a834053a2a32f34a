// The DuckDB side of labeled events (docs/labeled-events.md): a rule's conditions as one SQL
// condition on an event row `e`, over the element columns stored at ingest (engine/elementEncoding.ts);
// the preview's count of matching events; the counts each rule labels; and the sync job's
// transaction, which brings a rule's derived events in line with it over all history. Every value
// is bound. The rule arrives prepared by labeled/matchSql.ts (its selector parsed, its URL pattern
// made a full-match expression or an exact page), so nothing here reads a rule's text.

import { BIGINT, INTEGER, type DuckDBConnection, type DuckDBMaterializedResult, type DuckDBValue } from '@duckdb/node-api';
import { ATTR_END, ATTR_VALUE, ELEMENT_COLUMNS } from '../elementEncoding.js';
import type { Statement } from '../engine.js';
import type { AttributeMatch, CompoundMatch, DerivingRule, RuleMatch } from '../ruleMatch.js';
import { Binder } from '../sql.js';
import { forgetFolded } from '../rollups/actorDayFolder.js';
import { pagePathSql, pageUrlsSql } from './pageUrlSql.js';

/** The SQL condition for element `i` (a 1-based list index) of the chain. */
function compoundAt(b: Binder, c: CompoundMatch, i: string): string[] {
  const parts: string[] = [];
  if (c.tag) parts.push(`e.el_tags[${i}] = ${b.bind(c.tag)}`);
  for (const id of c.ids) parts.push(`e.el_ids[${i}] = ${b.bind(id)}`);
  for (const cls of c.classes) parts.push(`contains(e.el_classes[${i}], ${b.bind(` ${cls} `)})`);
  for (const n of c.nthChild) parts.push(`e.el_nth[${i}] = ${b.bind(n)}`);
  for (const a of c.attributes) parts.push(attributeAt(b, a, i));
  return parts;
}

function attributeAt(b: Binder, a: AttributeMatch, i: string): string {
  const key = `${ATTR_END}${a.name}${ATTR_VALUE}`;
  if (a.op === 'exists') return `contains(e.el_attrs[${i}], ${b.bind(key)})`;
  if (a.op === 'eq') return `contains(e.el_attrs[${i}], ${b.bind(`${key}${a.value!}${ATTR_END}`)})`;
  return `contains(split_part(split_part(e.el_attrs[${i}], ${b.bind(key)}, 2), chr(30), 1), ${b.bind(a.value!)})`;
}

const all = (parts: string[]) => (parts.length === 0 ? 'true' : parts.join(' AND '));

/**
 * Whether some element of the chain matches the rightmost compound and `attributes`, with the
 * compounds to its left matching its ancestors as the combinators say. The selector is read as an
 * automaton walking the chain once, from its top ancestor down to the target: bit k of the state
 * says compounds 0..k-1 matched above, and stays set while compound k may still come further down
 * (after a descendant combinator, not after a child one); bit m says the whole selector matched.
 * Linear in the chain for each compound, where trying every ancestor for every descendant
 * combinator grows as the chain's length to the power of the compounds.
 */
function chainCondition(b: Binder, sel: NonNullable<RuleMatch['chain']>, attributes: AttributeMatch[]): string {
  const m = sel.compounds.length;
  let persist = 1 | (1 << m);
  for (let k = 1; k < m; k++) if (sel.combinators[k - 1] !== 'child') persist |= 1 << k;
  const steps = sel.compounds.map((c, k) => {
    const here = [...compoundAt(b, c, 'pos'), ...(k === m - 1 ? attributes.map((a) => attributeAt(b, a, 'pos')) : [])];
    return `CASE WHEN (state & ${1 << k}) <> 0 AND ${all(here)} THEN ${1 << (k + 1)} ELSE 0 END`;
  });
  const step = [`(state & ${persist})`, ...steps].join(' | ');
  return `(list_reduce(list_prepend(CAST(1 AS BIGINT), range(CAST(len(e.el_tags) AS BIGINT), 0, -1)), lambda state, pos: ${step}) & ${1 << m}) <> 0`;
}

/** The condition on `page` (a normalized URL) that a URL pattern sets. */
function pageCondition(b: Binder, page: NonNullable<RuleMatch['page']>): string {
  const subject = page.onPath ? pagePathSql('page') : 'page';
  if ('regex' in page) return `regexp_full_match(${subject}, ${b.bind(page.regex)})`;
  return `${subject} = ${b.bind(page.equals)}`;
}

/**
 * The rule's condition on `e`. `urls` builds, when the rule has a URL pattern, a relation with a
 * text column `url` holding at least the URLs of the events it is applied to (distinct ones: each
 * is normalized once); it binds its values only then, as a statement must use every value bound.
 */
function ruleCondition(b: Binder, rule: RuleMatch, urls: () => string): string {
  const parts = [`e.event = ${b.bind(rule.base_event)}`];
  if (rule.page) {
    parts.push(`e.url IN (SELECT url FROM (${pageUrlsSql(urls())}) WHERE ${pageCondition(b, rule.page)})`);
  }
  if (rule.base_event !== 'pp.page_view') {
    if (rule.match_text) parts.push(`lower(e.el_text) = lower(${b.bind(rule.match_text)})`);
    if (rule.chain) parts.push(chainCondition(b, rule.chain, rule.attributes));
    else if (rule.attributes.length > 0) parts.push(all(rule.attributes.map((a) => attributeAt(b, a, '1'))));
  }
  return `(${parts.join(' AND ')})`;
}

/** The columns a derived event fills; the others (revenue, elements, element columns) stay NULL. */
const DERIVED_COLUMNS = [
  'project_id',
  'uuid',
  'ts',
  'received_at',
  'event',
  'distinct_id',
  'anonymous_id',
  'user_id',
  'session_id',
  'source',
  'sdk_name',
  'sdk_version',
  'key_id',
  'release',
  'url',
  'path',
  'referrer',
  'props',
  'invalid',
  'invalid_reasons',
  'rule_id',
  'source_uuid',
  'distinct_key',
] as const;

/**
 * A derived event's uuid: the md5 of its source's uuid and its rule's id read as a uuid, so
 * deriving again gives the same events (labeled/derive.ts computes the same for events as they are stored).
 */
const derivedUuid = (source: string, rule: string) => `CAST(md5(CAST(${source} AS VARCHAR) || ':' || CAST(${rule} AS VARCHAR)) AS UUID)`;

/** `SELECT` of the events `rule` derives from the rows of `from` (aliased `e`) that match it. */
function derivedRows(b: Binder, rule: DerivingRule, from: string, urls: () => string): string {
  const ruleId = `CAST(${b.bind(rule.id)} AS BIGINT)`;
  const values: Record<string, string> = { uuid: derivedUuid('e.uuid', ruleId), event: b.bind(rule.event_name), source: "'system'", rule_id: ruleId, source_uuid: 'e.uuid' };
  return `SELECT ${DERIVED_COLUMNS.map((c) => values[c] ?? `e.${c}`).join(', ')} FROM ${from} e WHERE ${ruleCondition(b, rule, urls)}`;
}

const INSERT = `INSERT INTO events (${DERIVED_COLUMNS.join(', ')})`;

/** A column computed in SQL from a JSON chain, by the macro of migration 0028 named after it. */
const elementColumnSql = (column: (typeof ELEMENT_COLUMNS)[number], elements: string): string => `pp_${column}(${elements})`;

/**
 * The project's events of one name, as rules match them: events stored before the element
 * columns existed (NULL there) get them from their chain, computed once per row.
 */
function candidates(b: Binder, projectId: number, event: string, where = ''): string {
  const filled = ELEMENT_COLUMNS.map((c) => `coalesce(${c}, ${elementColumnSql(c, 'elements')}) AS ${c}`).join(', ');
  return `(SELECT * REPLACE (${filled}) FROM events e
    WHERE project_id = ${b.bind(projectId)} AND event = ${b.bind(event)} AND rule_id IS NULL${where ? ` AND ${where}` : ''})`;
}

/** The distinct URLs of the project's events of the rule's base event (what the URL pattern is matched on). */
const baseUrls = (b: Binder, rule: Pick<RuleMatch, 'project_id' | 'base_event'>) => () =>
  `SELECT DISTINCT url FROM events WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL`;

/** How many events of the project the rule matches with `ts` in (from, to]: `n`. */
export function countMatchingSql(rule: RuleMatch, from: Date, to: Date): Statement {
  const b = new Binder();
  const range = () => `e.ts > CAST(${b.bind(from.toISOString())} AS TIMESTAMPTZ) AND e.ts <= CAST(${b.bind(to.toISOString())} AS TIMESTAMPTZ)`;
  const urls = () => `SELECT DISTINCT url FROM events e WHERE project_id = ${b.bind(rule.project_id)} AND event = ${b.bind(rule.base_event)} AND url IS NOT NULL AND ${range()}`;
  return { sql: `SELECT count(*) AS n FROM ${candidates(b, rule.project_id, rule.base_event, range())} e WHERE ${ruleCondition(b, rule, urls)}`, params: b.values };
}

/** How many events each rule of the project labels now: `rule_id`, `n`. */
export function labeledCountsSql(projectId: number): Statement {
  return { sql: 'SELECT rule_id, count(*) AS n FROM events WHERE project_id = $1 AND rule_id IS NOT NULL GROUP BY rule_id', params: [projectId] };
}

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
async function reconcileDerived(conn: DuckDBConnection, rule: DerivingRule, limitMs: number): Promise<{ deleted: number; labeled: number }> {
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
async function deleteDerived(conn: DuckDBConnection, projectId: number, ruleId: number): Promise<number> {
  const result = await conn.run('DELETE FROM events WHERE project_id = $1 AND rule_id = $2', [projectId, BigInt(ruleId)], [INTEGER, BIGINT]);
  return Number(result.rowsChanged);
}

/**
 * The sync job's transaction on the writer connection: an active rule (`rule`) reconciled over all
 * history, any other rule's derived events (`ruleId`) deleted; when events were deleted the
 * project's rollup rows go in the same transaction, and a checkpoint after it compacts them at once.
 */
export async function syncDerived(conn: DuckDBConnection, projectId: number, ruleId: number, rule: DerivingRule | null, limitMs: number): Promise<{ deleted: number; labeled: number }> {
  await conn.run('BEGIN TRANSACTION');
  try {
    const outcome = rule ? await reconcileDerived(conn, rule, limitMs) : { deleted: await deleteDerived(conn, projectId, ruleId), labeled: 0 };
    if (outcome.deleted > 0) await forgetFolded(conn, projectId);
    await conn.run('COMMIT');
    if (outcome.deleted > 0) await conn.run('FORCE CHECKPOINT');
    return outcome;
  } catch (err) {
    await conn.run('ROLLBACK').catch(() => undefined);
    throw err;
  }
}

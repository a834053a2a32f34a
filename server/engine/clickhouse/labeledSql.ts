// The ClickHouse side of labeled events (docs/labeled-events.md, the shapes of
// engine/duckdb/labeledSql.ts): a rule's conditions as one condition on an event row `e`, over the
// element columns the appender stores; the preview's count; the counts each rule labels; and the
// sync job, which brings a rule's derived events in line with it over all history. Values are
// literals (literal.ts). Rows stored twice before their parts merged count once (FINAL).
//
// 18.16 has no fold over an array, which DuckDB's selector automaton uses: here each bit of the
// automaton's state is an array over the chain of its own, built from the previous bit's with
// arrayMap and arrayCumSum (a cumulative "or" for a bit that persists below a descendant
// combinator), so the condition stays linear in the chain for each compound. The page of an URL is
// normalized on each row (normalizePageUrl in SQL; DuckDB does it once per distinct URL through a
// subquery, which a statement over a Distributed table could only send to its shards GLOBAL).
//
// A derived event sits on its source's shard (same distinct_key). Teardown is a mutation
// (mutations.ts): `ALTER TABLE … DELETE` on the shards' local tables, awaited on every node, so when
// the job answers no replica holds the rows and every insight counts exactly what DuckDB counts.
// Rows made invisible by a version instead (a `deleted` flag in a ReplacingMergeTree version)
// would need every read of events, in every insight, to drop them after FINAL; a mutation leaves
// the table as every read already reads it.

import type { EngineConnection, Statement } from '../engine.js';
import { ATTR_END, ATTR_VALUE } from '../elementEncoding.js';
import type { AttributeMatch, CompoundMatch, DerivingRule, RuleMatch } from '../ruleMatch.js';
import { clickHouse } from './engineConnection.js';
import { literal, splitMicros, table } from './literal.js';
import type { ClickHouseConnection } from './connection.js';
import { quorumSettings } from './versionClock.js';
import { deleteRows } from './mutations.js';

/** The lambda's names for the element columns at one position of the chain. */
const AT = { tag: 'pp_x_tag', id: 'pp_x_id', cls: 'pp_x_cls', nth: 'pp_x_nth', attrs: 'pp_x_attrs' } as const;
const ELEMENT_ARRAYS = 'e.el_tags, e.el_ids, e.el_classes, e.el_nth, e.el_attrs';

/** The condition on the attributes text `attrs` (one element's el_attrs). */
function attributeOn(a: AttributeMatch, attrs: string): string {
  const key = `${ATTR_END}${a.name}${ATTR_VALUE}`;
  if (a.op === 'exists') return `position(${attrs}, ${literal(key)}) > 0`;
  if (a.op === 'eq') return `position(${attrs}, ${literal(`${key}${a.value!}${ATTR_END}`)}) > 0`;
  // The value: after the first `key`, up to the next ATTR_END ('' without the key).
  if (a.value === '') return '1';
  const rest = `if(position(${attrs}, ${literal(key)}) = 0, '', substring(${attrs}, position(${attrs}, ${literal(key)}) + ${Buffer.byteLength(key)}))`;
  const value = `substring(${rest}, 1, position(concat(${rest}, ${literal(ATTR_END)}), ${literal(ATTR_END)}) - 1)`;
  return `position(${value}, ${literal(a.value!)}) > 0`;
}

/** The condition on one element (the lambda's names, AT) of a compound and `attributes`. */
function compoundOn(c: CompoundMatch, attributes: AttributeMatch[]): string {
  const parts: string[] = [];
  if (c.tag) parts.push(`ifNull(${AT.tag} = ${literal(c.tag)}, 0)`);
  for (const id of c.ids) parts.push(`ifNull(${AT.id} = ${literal(id)}, 0)`);
  for (const cls of c.classes) parts.push(`ifNull(position(${AT.cls}, ${literal(` ${cls} `)}) > 0, 0)`);
  for (const n of c.nthChild) parts.push(`ifNull(${AT.nth} = ${literal(n)}, 0)`);
  for (const a of [...c.attributes, ...attributes]) parts.push(attributeOn(a, AT.attrs));
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

/** Whether each element matches, from the top ancestor down to the target (the columns list the target first). */
function matchesDown(c: CompoundMatch, attributes: AttributeMatch[]): string {
  return `arrayReverse(arrayMap((${Object.values(AT).join(', ')}) -> toUInt8(${compoundOn(c, attributes)}), ${ELEMENT_ARRAYS}))`;
}

/** `bits` moved one position down the chain, `first` above its top: the state before each step. */
const before = (bits: string, first: 0 | 1) => `arraySlice(arrayPushFront(${bits}, ${first}), 1, length(e.el_tags))`;

/**
 * DuckDB's automaton (duckdb/labeledSql.ts) bit by bit: bit 0 is set throughout; bit k+1 is set at a
 * step when bit k was set before it and compound k matches there, and stays set after that when
 * compound k+1 may come further down (a descendant combinator); the selector matched when the last
 * compound (with `attributes`) matched at some step with the bit before it set.
 */
function chainCondition(sel: NonNullable<RuleMatch['chain']>, attributes: AttributeMatch[]): string {
  const m = sel.compounds.length;
  let bits = ''; // bit k over the chain; bit 0 is all ones, which `before` and the step need not read
  for (let k = 0; k < m; k++) {
    const here = matchesDown(sel.compounds[k]!, k === m - 1 ? attributes : []);
    const step = k === 0 ? here : `arrayMap((pp_x_was, pp_x_here) -> pp_x_was AND pp_x_here, ${before(bits, 0)}, ${here})`;
    if (k === m - 1) return `arrayExists(pp_x_hit -> pp_x_hit = 1, ${step})`;
    bits = sel.combinators[k] === 'child' ? step : `arrayMap(pp_x_n -> toUInt8(pp_x_n > 0), arrayCumSum(${step}))`;
  }
  throw new Error('a selector has at least one compound');
}

/**
 * normalizePageUrl (behavior/pageUrl.ts) of the text `u`, as DuckDB's pageUrlsSql writes it: the
 * origin lowercased without its default port, the path without trailing slashes ('/' for none), a
 * fragment only when it is a hash route; '' for none.
 */
function pageOf(u: string): string {
  const base = `extract(${u}, '^([^#?]*)')`;
  const frag = `if(position(${u}, '#') > 0, substring(${u}, position(${u}, '#')), '')`;
  const o = `extract(${base}, '^([A-Za-z][A-Za-z0-9+.-]*://[^/]*)')`;
  const rest = `substring(${base}, length(${o}) + 1)`;
  const origin = `if(${o} = '', '', replaceRegexpOne(replaceRegexpOne(lowerUTF8(${o}), '(?s)^(http://.*):80$', '\\\\1'), '(?s)^(https://.*):443$', '\\\\1'))`;
  const path = `replaceRegexpOne(if(${o} = '', ${base}, if(${rest} = '', '/', ${rest})), '(?s)(.)/+$', '\\\\1')`;
  const fragment = `if(match(${frag}, '^#[/!]'), ${frag}, '')`;
  return `concat(${origin}, ${path}, ${fragment})`;
}

/** The condition a URL pattern sets on the event's page. */
function pageCondition(page: NonNullable<RuleMatch['page']>): string {
  const normalized = pageOf('assumeNotNull(e.url)');
  const subject = page.onPath ? `replaceRegexpOne(${normalized}, '^[A-Za-z][A-Za-z0-9+.-]*://[^/]*', '')` : normalized;
  let test: string;
  if ('regex' in page) {
    const flags = page.regex.startsWith('(?s)') ? '(?s)' : '';
    test = `match(${subject}, ${literal(`${flags}^(?:${page.regex.slice(flags.length)})$`)})`;
  } else test = `${subject} = ${literal(page.equals)}`;
  return `isNotNull(e.url) AND ${normalized} <> '' AND ${test}`;
}

/** The rule's condition on `e`, an event of its base event. */
function ruleCondition(rule: RuleMatch): string {
  const parts: string[] = [];
  if (rule.base_event !== 'pp.page_view') {
    if (rule.match_text) parts.push(`ifNull(lowerUTF8(e.el_text) = lowerUTF8(${literal(rule.match_text)}), 0)`);
    if (rule.chain) parts.push(chainCondition(rule.chain, rule.attributes));
    else if (rule.attributes.length > 0) {
      parts.push(`length(e.el_attrs) >= 1`, ...rule.attributes.map((a) => attributeOn(a, 'e.el_attrs[1]')));
    }
  }
  if (rule.page) parts.push(pageCondition(rule.page));
  return parts.length === 0 ? '1' : parts.map((p) => `(${p})`).join(' AND ');
}

/** The project's events of the rule's base event that are not derived ones, `e`, as rules match them. */
const candidates = (rule: RuleMatch) => `e.project_id = ${literal(rule.project_id)} AND e.event = ${literal(rule.base_event)} AND isNull(e.rule_id)`;

/** How many events of the project the rule matches with `ts` in (from, to]: `n`. */
export function countMatchingSql(rule: RuleMatch, from: Date, to: Date): Statement {
  const fromUs = BigInt(from.getTime()) * 1000n;
  const toUs = BigInt(to.getTime()) * 1000n;
  // The DateTime bounds let ClickHouse skip parts; the exact ones compare microseconds.
  const coarse = [
    `e.ts >= toDateTime(${Math.max(0, splitMicros(Number(fromUs)).seconds)}, 'UTC')`,
    `e.ts <= toDateTime(${Math.min(2 ** 32 - 1, Math.max(0, splitMicros(Number(toUs)).seconds))}, 'UTC')`,
  ];
  const exact = `(toUInt64(e.ts) * 1000000 + e.ts_us) > ${literal(fromUs < 0n ? -1n : fromUs)} AND (toUInt64(e.ts) * 1000000 + e.ts_us) <= ${literal(toUs < 0n ? 0n : toUs)}`;
  const inRange = fromUs < 0n ? `${coarse[1]} AND (toUInt64(e.ts) * 1000000 + e.ts_us) <= ${literal(toUs < 0n ? 0n : toUs)}` : `${coarse.join(' AND ')} AND ${exact}`;
  return { sql: `SELECT count() AS n FROM events AS e FINAL WHERE ${candidates(rule)} AND ${inRange} AND ${ruleCondition(rule)}`, params: [] };
}

/** How many events each rule of the project labels now: `rule_id`, `n`. */
export function labeledCountsSql(projectId: number): Statement {
  return {
    sql: `SELECT r AS rule_id, n FROM (SELECT assumeNotNull(rule_id) AS r, count() AS n FROM events FINAL WHERE project_id = ${literal(projectId)} AND isNotNull(rule_id) GROUP BY r)`,
    params: [],
  };
}

/** The columns a derived event fills; the others (revenue, elements, element columns) keep their defaults (NULL, empty). */
const DERIVED_COLUMNS = [
  'project_id',
  'uuid',
  'ts',
  'ts_us',
  'received_at',
  'received_us',
  'event',
  'distinct_id',
  'distinct_key',
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
  'prop_keys',
  'prop_values',
  'prop_numbers',
  'prop_kinds',
] as const;

/**
 * A derived event's uuid: the md5 of its source's uuid and its rule's id read as a uuid, as DuckDB
 * (and labeled/derive.ts for events as they are stored) computes it.
 */
const derivedUuid = (ruleId: number) => `toUUID(UUIDNumToString(MD5(concat(toString(e.uuid), ':', ${literal(String(ruleId))}))))`;

/** The project's events table holding one shard's rows, for a subquery of a statement over the Distributed one. */
const localEvents = (conn: ClickHouseConnection) => table(conn.cluster === undefined ? 'events' : 'events_local');

async function countOf(conn: ClickHouseConnection, where: string): Promise<number> {
  const [row] = await conn.query<{ n: string }>(`SELECT count() AS n FROM events FINAL WHERE ${where}`);
  return Number(row?.n ?? 0);
}

/** Uuids per mutation: a statement's text must stay under max_query_size (256 KiB). */
const UUIDS_PER_MUTATION = 2000;

/**
 * Deletes the rule's derived events whose source it no longer matches (or that carry an earlier
 * event name): found first (on each shard, beside their sources), then deleted by uuid, or all of
 * the rule's at once when none is left. Answers how many.
 */
async function deleteUnmatched(conn: ClickHouseConnection, rule: DerivingRule, held: number, limit: Record<string, number>): Promise<number> {
  const ofRule = `project_id = ${literal(rule.project_id)} AND rule_id = ${literal(rule.id)}`;
  const matching = `SELECT e.uuid FROM ${localEvents(conn)} AS e FINAL WHERE ${candidates(rule)} AND ${ruleCondition(rule)}`;
  const stale = await conn.query<{ id: string }>(
    `SELECT toString(d.uuid) AS id FROM events AS d FINAL WHERE d.project_id = ${literal(rule.project_id)} AND d.rule_id = ${literal(rule.id)}
      AND (d.event <> ${literal(rule.event_name)} OR assumeNotNull(d.source_uuid) NOT IN (${matching}))`,
    { settings: limit },
  );
  if (stale.length === 0) return 0;
  if (stale.length === held) await deleteRows(conn, 'events', ofRule);
  else {
    for (let at = 0; at < stale.length; at += UUIDS_PER_MUTATION) {
      const uuids = stale.slice(at, at + UUIDS_PER_MUTATION).map((r) => `toUUID(${literal(r.id)})`);
      await deleteRows(conn, 'events', `${ofRule} AND uuid IN (${uuids.join(', ')})`);
    }
  }
  return stale.length;
}

/** Derives the events missing for `rule` over all history: its matches not labeled by it yet (looked up on their own shard). */
async function deriveMissing(conn: ClickHouseConnection, rule: DerivingRule, settings: Record<string, number>): Promise<void> {
  const values: Record<string, string> = {
    uuid: derivedUuid(rule.id),
    event: literal(rule.event_name),
    source: "'system'",
    rule_id: `toNullable(toUInt64(${literal(rule.id)}))`,
    source_uuid: 'toNullable(e.uuid)',
  };
  const labeled = `SELECT assumeNotNull(x.source_uuid) FROM ${localEvents(conn)} AS x WHERE x.project_id = ${literal(rule.project_id)} AND x.rule_id = ${literal(rule.id)}`;
  await conn.command(
    `INSERT INTO events (${DERIVED_COLUMNS.join(', ')})
     SELECT ${DERIVED_COLUMNS.map((c) => values[c] ?? `e.${c}`).join(', ')}
       FROM events AS e FINAL
      WHERE ${candidates(rule)} AND e.uuid NOT IN (${labeled}) AND ${ruleCondition(rule)}`,
    // Every column of every part is read at once under FINAL, each through a read buffer of 1 MiB
    // by default: with a few dozen unmerged parts that passes a node's memory limit.
    { settings: { ...settings, max_read_buffer_size: 65536 } },
  );
}

/**
 * The sync job on ClickHouse: an active rule (`rule`) reconciled over all history (its stale
 * derived events deleted, its missing ones derived), any other rule's derived events (`ruleId`)
 * deleted. ClickHouse has no transactions: each step is safe to run again, and a job stopped
 * halfway is finished by running it again. Every statement that matches the rule carries the time
 * limit of a query (`limitMs`); a deletion waits for its mutation on every node (mutations.ts).
 * Answers what it deleted and how many events the rule labels afterwards.
 */
export async function syncDerived(turn: EngineConnection, projectId: number, ruleId: number, rule: DerivingRule | null, limitMs: number): Promise<{ deleted: number; labeled: number }> {
  const conn = clickHouse(turn);
  const ofRule = `project_id = ${literal(projectId)} AND rule_id = ${literal(ruleId)}`;
  const held = await countOf(conn, ofRule);
  if (!rule) {
    if (held > 0) await deleteRows(conn, 'events', ofRule);
    return { deleted: held, labeled: 0 };
  }
  const limit = { max_execution_time: Math.max(1, Math.ceil(limitMs / 1000)) };
  const deleted = held > 0 ? await deleteUnmatched(conn, rule, held, limit) : 0;
  await deriveMissing(conn, rule, { ...limit, insert_distributed_sync: 1, ...(await quorumSettings(conn)) });
  return { deleted, labeled: await countOf(conn, ofRule) };
}

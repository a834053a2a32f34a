// Path cleaning: how a page view's URL becomes an item of the paths query. The host goes, and the
// query and fragment (ingestion already keeps the path alone), then trailing slashes, then the
// project's ordered rules, each a regular expression (RE2, as DuckDB runs it: linear in the path)
// replaced everywhere it matches by its alias, never past MAX_CLEANED_PATH characters. Rules are
// stored per project with a revision that every change moves; the paths query's cache key carries it.

import type { DuckDBValue } from '@duckdb/node-api';
import { cachedStatement, type MetaDb } from '../store/sqlite.js';
import type { EventStore } from '../store/eventStore.js';
import { AppError, QueryTimeoutError, ValidationError } from '../ground/errors.js';
import { pathOf } from '../ingest/normalizeEvent.js';
import { URL_MAX } from '../ingest/eventSchema.js';
import { Binder } from '../engine/sql.js';

export interface PathRule {
  pattern: string;
  alias: string;
}

export interface PathCleaning {
  rules: PathRule[];
  revision: number;
  updated_at: string | null;
}

export const MAX_PATH_RULES = 50;
/** The longest a path gets through cleaning: the longest URL ingestion keeps, so every stored path fits. */
export const MAX_CLEANED_PATH = URL_MAX;
/** Characters of all a list's aliases together. */
export const MAX_ALIAS_TOTAL = 2000;
/** What checking or tracing one list of rules may take, all its statements together. */
export const RULES_TIME_LIMIT_MS = 5000;

export function getPathCleaning(db: MetaDb, projectId: number): PathCleaning {
  // Every query request reads it (the revision keys cached answers): compiled once.
  const row = cachedStatement(db, 'SELECT rules, revision, updated_at FROM path_cleaning WHERE project_id = ?').get(projectId) as
    | { rules: string; revision: number; updated_at: string }
    | undefined;
  if (!row) return { rules: [], revision: 0, updated_at: null };
  return { rules: JSON.parse(row.rules) as PathRule[], revision: row.revision, updated_at: row.updated_at };
}

/** Replaces the project's rules and moves its revision on. */
export function setPathRules(db: MetaDb, projectId: number, rules: PathRule[], userId: number, now: Date): PathCleaning {
  const list = JSON.stringify(rules.map(({ pattern, alias }) => ({ pattern, alias })));
  db.prepare(
    `INSERT INTO path_cleaning (project_id, rules, revision, updated_by, updated_at) VALUES (?, ?, 1, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET rules = excluded.rules, revision = revision + 1, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
  ).run(projectId, list, userId, now.toISOString());
  return getPathCleaning(db, projectId);
}

/** The path with its trailing slashes removed (`/` stays `/`), as SQL over a path expression. */
function trimmedSql(path: string): string {
  return `CASE WHEN rtrim(${path}, '/') = '' THEN '/' ELSE rtrim(${path}, '/') END`;
}

/**
 * What a rule puts in place of each match, read from its alias as RE2 reads a replacement:
 * `literal` characters (`\\` is one) and `groups` copies of matched text (`\0`…`\9`, each at most
 * the match). UTF-16 units, never fewer than the characters DuckDB counts.
 */
function growthOf(alias: string): { literal: number; groups: number } {
  let literal = 0;
  let groups = 0;
  for (let i = 0; i < alias.length; i++) {
    const escaped = alias[i] === '\\' ? alias[i + 1] : undefined;
    if (escaped !== undefined && escaped >= '0' && escaped <= '9') groups += 1;
    else literal += escaped === undefined || escaped === '\\' ? 1 : 2;
    // A backslash and what it escapes are read together.
    if (escaped !== undefined) i += 1;
  }
  return { literal, groups };
}

/**
 * Whether a rule's result on `text` (a column or a parameter: it is read several times) is sure to
 * fit in MAX_CLEANED_PATH. With L the text's length, u its length with every match removed and w
 * with every match made one character, the w − u matches cover L − u characters and the result is
 * at most u + (w − u)·literal + (L − u)·groups. The first test, from L alone (at most L + 1 matches
 * covering at most L characters), spares most paths the two extra passes; CASE runs them only where
 * it fails, and neither is longer than 2L + 1.
 */
function fitsSql(b: Binder, rule: PathRule, text: string): string {
  const { literal, groups } = growthOf(rule.alias);
  const max = b.bind(MAX_CLEANED_PATH);
  const pattern = b.bind(rule.pattern);
  const removed = `length(regexp_replace(${text}, ${pattern}, '', 'g'))`;
  const marked = `length(regexp_replace(${text}, ${pattern}, 'x', 'g'))`;
  const byLength = `length(${text}) * ${b.bind(1 + literal + groups)} + ${b.bind(literal)} <= ${max}`;
  const byMatches = `${b.bind(literal)} * ${marked} + ${b.bind(1 - literal - groups)} * ${removed} + ${b.bind(groups)} * length(${text}) <= ${max}`;
  return `CASE WHEN ${byLength} THEN true ELSE ${byMatches} END`;
}

/** One rule applied to `text`: every match of its pattern replaced by its alias, unless the result could pass MAX_CLEANED_PATH. */
function ruleSql(b: Binder, rule: PathRule, text: string): string {
  return `CASE WHEN ${fitsSql(b, rule, text)} THEN regexp_replace(${text}, ${b.bind(rule.pattern)}, ${b.bind(rule.alias)}, 'g') ELSE ${text} END`;
}

/**
 * `(path, cleaned)` for the rows of `paths`, a statement giving a `path` column: trimmed, then each
 * rule in order. Each rule is a level of its own, so each reads the previous result as a column
 * rather than repeating its expression.
 */
export function cleanedPagesSql(b: Binder, rules: readonly PathRule[], paths: string): string {
  const trimmed = `SELECT path, ${trimmedSql('path')} AS s FROM (${paths})`;
  const cleaned = rules.reduce((from, r) => `SELECT path, ${ruleSql(b, r, 's')} AS s FROM (${from})`, trimmed);
  return `SELECT path, s AS cleaned FROM (${cleaned})`;
}

/** The milliseconds left of a time limit; once none are, it throws 408 `query_timeout` as the engine does. */
export type TimeLeft = () => number;

/** A time limit that starts now: loops ask it before each statement and give the statement what is left. */
export function timeLimit(limitMs: number): TimeLeft {
  const end = performance.now() + limitMs;
  return () => {
    const left = Math.floor(end - performance.now());
    if (left <= 0) throw new QueryTimeoutError(limitMs);
    return left;
  };
}

/** The aliases of a list together stay short, whatever a single rule may do. */
function checkAliasTotal(rules: readonly PathRule[], field: string): void {
  const total = rules.reduce((n, r) => n + r.alias.length, 0);
  if (total > MAX_ALIAS_TOTAL) {
    throw new ValidationError(`${field} have aliases of ${total} characters together; at most ${MAX_ALIAS_TOTAL} are allowed`, field);
  }
}

/**
 * Every rule must compile in JavaScript and in DuckDB, and its alias must be a valid replacement
 * there (`\1`…`\9` name groups): tried on an empty path, so a defect is a 422 naming the rule.
 */
export async function checkPathRules(store: EventStore, rules: readonly PathRule[], field = 'rules', timeLeft = timeLimit(RULES_TIME_LIMIT_MS)): Promise<void> {
  checkAliasTotal(rules, field);
  for (const [i, rule] of rules.entries()) {
    const at = `${field}[${i}]`;
    try {
      new RegExp(rule.pattern, 'u');
    } catch (err) {
      throw new ValidationError(`${at}.pattern is not a regular expression: ${(err as Error).message}`, `${at}.pattern`);
    }
    const b = new Binder();
    const timeoutMs = timeLeft();
    try {
      await store.read(`SELECT ${ruleSql(b, rule, b.bind('/'))} AS cleaned`, b.values, { timeoutMs });
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new ValidationError(`${at} is not accepted by the query engine (RE2 syntax; \\1…\\9 in the alias name groups): ${firstLine(err)}`, `${at}.pattern`);
    }
  }
}

function firstLine(err: unknown): string {
  return String((err as Error).message ?? err).split('\n', 1)[0]!.slice(0, 300);
}

export interface CleaningTrace {
  url: string;
  /** The URL's path, before any cleaning; null when the URL has none. */
  path: string | null;
  /** What the paths query shows for a page view of this URL. */
  cleaned: string | null;
  steps: Array<PathRule & { matched: boolean; result: string }>;
}

/**
 * Cleans one URL through the rules with the same SQL the paths query runs, a statement a step, all
 * within one time limit. A rule whose result could pass MAX_CLEANED_PATH is a 422 naming it: the
 * query would leave the path as it was, which is worth knowing before saving.
 */
export async function traceCleaning(store: EventStore, url: string, rules: readonly PathRule[], field = 'rules', timeLeft = timeLimit(RULES_TIME_LIMIT_MS)): Promise<CleaningTrace> {
  const path = pathOf(url);
  if (path === null) return { url, path: null, cleaned: null, steps: [] };
  const first = new Binder();
  const [start] = await store.read(`SELECT ${trimmedSql(first.bind(path))} AS s`, first.values, { timeoutMs: timeLeft() });
  let text = String(start!.s);
  const steps: CleaningTrace['steps'] = [];
  for (const [i, rule] of rules.entries()) {
    const b = new Binder();
    const s = b.bind(text);
    const sql = `SELECT regexp_matches(${s}, ${b.bind(rule.pattern)}) AS matched, ${fitsSql(b, rule, s)} AS fits, ${ruleSql(b, rule, s)} AS result`;
    const row = (await store.read(sql, b.values as DuckDBValue[], { timeoutMs: timeLeft() }))[0]!;
    if (!row.fits) {
      throw new ValidationError(`${field}[${i}] could make the path of this URL longer than ${MAX_CLEANED_PATH} characters, the most a cleaned path may have`, `${field}[${i}].alias`);
    }
    text = String(row.result);
    steps.push({ pattern: rule.pattern, alias: rule.alias, matched: Boolean(row.matched), result: text });
  }
  return { url, path, cleaned: text, steps };
}

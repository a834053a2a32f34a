// Path cleaning: how a page view's URL becomes an item of the paths query. The host goes, and the
// query and fragment (ingestion already keeps the path alone), then trailing slashes, then the
// project's ordered rules, each a regular expression (RE2, as DuckDB runs it: linear in the path)
// replaced everywhere it matches by its alias, never past MAX_CLEANED_PATH characters. Rules are
// stored per project with a revision that every change moves; the paths query's cache key carries it.

import { cachedStatement, type MetaDb } from '../store/sqlite.js';
import type { EventEngine } from '../engine/engine.js';
import { AppError, QueryTimeoutError, ValidationError } from '../ground/errors.js';
import { pathOf } from '../ingest/normalizeEvent.js';
import { URL_MAX } from '../ingest/eventSchema.js';
import { statementsOf } from '../engine/statements.js';

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
  const row = cachedStatement(db, 'SELECT rules, revision, updated_at FROM path_cleaning WHERE project_id = ?').get(projectId) as { rules: string; revision: number; updated_at: string } | undefined;
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
export async function checkPathRules(store: EventEngine, rules: readonly PathRule[], field = 'rules', timeLeft = timeLimit(RULES_TIME_LIMIT_MS)): Promise<void> {
  checkAliasTotal(rules, field);
  for (const [i, rule] of rules.entries()) {
    const at = `${field}[${i}]`;
    try {
      new RegExp(rule.pattern, 'u');
    } catch (err) {
      throw new ValidationError(`${at}.pattern is not a regular expression: ${(err as Error).message}`, `${at}.pattern`);
    }
    const timeoutMs = timeLeft();
    try {
      // An engine's builder may refuse a rule it would not run as the others do.
      const q = statementsOf(store).pathCleaning.ruleCheckSql(rule, MAX_CLEANED_PATH);
      await store.read(q.sql, q.params, { timeoutMs });
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new ValidationError(`${at} is not accepted by the query engine (RE2 syntax; \\1…\\9 in the alias name groups): ${firstLine(err)}`, `${at}.pattern`);
    }
  }
}

function firstLine(err: unknown): string {
  return String((err as Error).message ?? err)
    .split('\n', 1)[0]!
    .slice(0, 300);
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
export async function traceCleaning(store: EventEngine, url: string, rules: readonly PathRule[], field = 'rules', timeLeft = timeLimit(RULES_TIME_LIMIT_MS)): Promise<CleaningTrace> {
  const path = pathOf(url);
  if (path === null) return { url, path: null, cleaned: null, steps: [] };
  const sql = statementsOf(store).pathCleaning;
  const first = sql.trimmedPathSql(path);
  const [start] = await store.read(first.sql, first.params, { timeoutMs: timeLeft() });
  let text = String(start!.s);
  const steps: CleaningTrace['steps'] = [];
  for (const [i, rule] of rules.entries()) {
    const step = sql.ruleStepSql(text, rule, MAX_CLEANED_PATH);
    const row = (await store.read(step.sql, step.params, { timeoutMs: timeLeft() }))[0]!;
    if (!row.fits) {
      throw new ValidationError(`${field}[${i}] could make the path of this URL longer than ${MAX_CLEANED_PATH} characters, the most a cleaned path may have`, `${field}[${i}].alias`);
    }
    text = String(row.result);
    steps.push({ pattern: rule.pattern, alias: rule.alias, matched: Boolean(row.matched), result: text });
  }
  return { url, path, cleaned: text, steps };
}

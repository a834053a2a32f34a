// Path cleaning: how a page view's URL becomes an item of the paths query. The host goes, and the
// query and fragment (ingestion already keeps the path alone), then trailing slashes, then the
// project's ordered rules, each a regular expression (RE2, as DuckDB runs it) replaced everywhere
// it matches by its alias. Rules are stored per project with a revision that every change moves;
// the paths query's cache key carries it.

import type { DuckDBValue } from '@duckdb/node-api';
import { cachedStatement, type MetaDb } from '../store/sqlite.js';
import type { EventStore } from '../store/eventStore.js';
import { ValidationError } from '../http/errors.js';
import { pathOf } from '../ingest/normalizeEvent.js';
import { Binder } from './sql.js';

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

/** One rule applied to a text expression: every match of its pattern replaced by its alias. */
function ruleSql(b: Binder, rule: PathRule, text: string): string {
  return `regexp_replace(${text}, ${b.bind(rule.pattern)}, ${b.bind(rule.alias)}, 'g')`;
}

/** The cleaned path of a path expression: trimmed, then each rule in order. */
export function cleanedPathSql(b: Binder, rules: readonly PathRule[], path: string): string {
  return rules.reduce((x, r) => ruleSql(b, r, x), trimmedSql(path));
}

/**
 * Every rule must compile in JavaScript and in DuckDB, and its alias must be a valid replacement
 * there (`\1`…`\9` name groups): tried on an empty path, so a defect is a 422 naming the rule.
 */
export async function checkPathRules(store: EventStore, rules: readonly PathRule[], field = 'rules'): Promise<void> {
  for (const [i, rule] of rules.entries()) {
    const at = `${field}[${i}]`;
    try {
      new RegExp(rule.pattern, 'u');
    } catch (err) {
      throw new ValidationError(`${at}.pattern is not a regular expression: ${(err as Error).message}`, `${at}.pattern`);
    }
    const b = new Binder();
    try {
      await store.read(`SELECT ${cleanedPathSql(b, [rule], b.bind('/'))} AS cleaned`, b.values, { timeoutMs: 5000 });
    } catch (err) {
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

/** Cleans one URL through the rules with the same SQL the paths query runs, step by step. */
export async function traceCleaning(store: EventStore, url: string, rules: readonly PathRule[]): Promise<CleaningTrace> {
  const path = pathOf(url);
  if (path === null) return { url, path: null, cleaned: null, steps: [] };
  const b = new Binder();
  const start = b.bind(path);
  const columns = [`${trimmedSql(start)} AS s0`];
  rules.forEach((r, i) => {
    columns.push(`regexp_matches(s${i}, ${b.bind(r.pattern)}) AS m${i + 1}`);
    columns.push(`${ruleSql(b, r, `s${i}`)} AS s${i + 1}`);
  });
  // Each step reads the previous one's result: one lateral column list.
  const row = (await store.read(`SELECT ${columns.join(', ')}`, b.values as DuckDBValue[], { timeoutMs: 5000 }))[0]!;
  return {
    url,
    path,
    cleaned: String(row[`s${rules.length}`]),
    steps: rules.map((r, i) => ({ pattern: r.pattern, alias: r.alias, matched: Boolean(row[`m${i + 1}`]), result: String(row[`s${i + 1}`]) })),
  };
}

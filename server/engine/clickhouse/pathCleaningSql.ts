// Path cleaning in ClickHouse SQL, with the meaning of ../duckdb/pathCleaningSql.ts: trailing
// slashes trimmed, then each rule's RE2 pattern replaced by its alias (replaceRegexpAll and match
// are RE2 too), never past `maxLength` characters (lengthUTF8: characters, as DuckDB counts them).
// An alias means the same on both engines only when its backslashes escape a digit or a backslash:
// RE2 refuses any other escape, which ClickHouse would read as the escaped character itself, so
// such an alias is refused here too (the check's statement fails).

import type { Statement } from '../engine.js';
import { growthOf, type PathRule } from '../duckdb/pathCleaningSql.js';
import { literal } from './literal.js';

export type { PathRule } from '../duckdb/pathCleaningSql.js';

/** The path with its trailing slashes removed (`/` stays `/`). */
function trimmedSql(path: string): string {
  return `if(replaceRegexpOne(${path}, '/+$', '') = '', '/', replaceRegexpOne(${path}, '/+$', ''))`;
}

/** Whether every backslash of `alias` escapes a digit or a backslash, as RE2 requires of a rewrite. */
export function aliasReadsAlike(alias: string): boolean {
  for (let i = 0; i < alias.length; i++) {
    if (alias[i] !== '\\') continue;
    const next = alias[i + 1];
    if (next === undefined || !(next === '\\' || (next >= '0' && next <= '9'))) return false;
    i += 1;
  }
  return true;
}

/** Whether the rule's result on `text` (read several times) is sure to fit: as DuckDB's fitsSql. */
function fitsSql(rule: PathRule, text: string, maxLength: number): string {
  const { literal: lit, groups } = growthOf(rule.alias);
  const pattern = literal(rule.pattern);
  const removed = `lengthUTF8(replaceRegexpAll(${text}, ${pattern}, ''))`;
  const marked = `lengthUTF8(replaceRegexpAll(${text}, ${pattern}, 'x'))`;
  const byLength = `toInt64(lengthUTF8(${text})) * ${1 + lit + groups} + ${lit} <= ${maxLength}`;
  const byMatches = `${lit} * toInt64(${marked}) + ${1 - lit - groups} * toInt64(${removed}) + ${groups} * toInt64(lengthUTF8(${text})) <= ${maxLength}`;
  return `if(${byLength}, 1, ${byMatches})`;
}

/** One rule on `text`: every match replaced by the alias, unless the result could pass `maxLength`. */
function ruleSql(rule: PathRule, text: string, maxLength: number): string {
  return `if(${fitsSql(rule, text, maxLength)}, replaceRegexpAll(${text}, ${literal(rule.pattern)}, ${literal(rule.alias)}), ${text})`;
}

/**
 * `(page, cleaned)` for the rows of `pages`, a statement giving a String column `page`: trimmed, then
 * each rule in order, each a level of its own (s0, s1, …) reading the previous result as a column.
 */
export function cleanedPagesSql(rules: readonly PathRule[], pages: string, maxLength: number): string {
  const trimmed = `SELECT page, ${trimmedSql('page')} AS s0 FROM (${pages})`;
  const cleaned = rules.reduce((from, r, i) => `SELECT page, ${ruleSql(r, `s${i}`, maxLength)} AS s${i + 1} FROM (${from})`, trimmed);
  return `SELECT page, s${rules.length} AS cleaned FROM (${cleaned})`;
}

/** The rule tried on the path `/`: ClickHouse refuses a pattern it cannot compile; an alias RE2 would refuse fails too. */
export function ruleCheckSql(rule: PathRule, maxLength: number): Statement {
  if (!aliasReadsAlike(rule.alias)) return { sql: `SELECT throwIf(1) AS refused -- the alias escapes a character that is neither a digit nor a backslash`, params: [] };
  return { sql: `SELECT ${ruleSql(rule, literal('/'), maxLength)} AS cleaned`, params: [] };
}

/** The path trimmed (`s`). */
export function trimmedPathSql(path: string): Statement {
  return { sql: `SELECT ${trimmedSql(literal(path))} AS s`, params: [] };
}

/** One rule on `text`: whether it `matched`, whether the result `fits`, and the `result`. */
export function ruleStepSql(text: string, rule: PathRule, maxLength: number): Statement {
  const s = literal(text);
  return { sql: `SELECT match(${s}, ${literal(rule.pattern)}) AS matched, ${fitsSql(rule, s, maxLength)} AS fits, ${ruleSql(rule, s, maxLength)} AS result`, params: [] };
}

// Path cleaning in ClickHouse SQL, with the meaning of ../duckdb/pathCleaningSql.ts: trailing
// slashes trimmed, then each rule's RE2 pattern replaced by its alias (replaceRegexpAll and match
// are RE2 too), never past `maxLength` characters (lengthUTF8: characters, as DuckDB counts them).
// An alias is read as RE2 (DuckDB) reads it: a backslash escapes a digit (a group) or a backslash;
// at any other escape RE2 stops the replacement there, where ClickHouse would read the escaped
// character itself, so the alias given to ClickHouse ends there (`rewriteOf`). A group past the
// pattern's, which DuckDB leaves unreplaced, ClickHouse refuses: the rule check answers 422. So
// does a pattern that can match an empty string: RE2 (DuckDB) replaces every empty match, 18.16's
// replaceRegexpAll stops at the first one (`mayMatchEmpty`).

import type { Statement } from '../engine.js';
import { growthOf, type PathRule } from '../duckdb/pathCleaningSql.js';
import { literal } from './literal.js';

export type { PathRule } from '../duckdb/pathCleaningSql.js';

/** The path with its trailing slashes removed (`/` stays `/`). */
function trimmedSql(path: string): string {
  return `if(replaceRegexpOne(${path}, '/+$', '') = '', '/', replaceRegexpOne(${path}, '/+$', ''))`;
}

/** The alias up to its first escape RE2 cannot rewrite (one of neither a digit nor a backslash, or a last lone backslash). */
export function rewriteOf(alias: string): string {
  for (let i = 0; i < alias.length; i++) {
    if (alias[i] !== '\\') continue;
    const next = alias[i + 1];
    if (next === undefined || !(next === '\\' || (next >= '0' && next <= '9'))) return alias.slice(0, i);
    i += 1;
  }
  return alias;
}

/**
 * Whether `pattern` can match an empty string somewhere: with its assertions (`^`, `$`, `\b`, `\B`,
 * `\A`, `\z`) taken as always true, it matches the empty string. Read once, left to right; a
 * pattern JavaScript cannot read so is taken as one that can.
 */
export function mayMatchEmpty(pattern: string): boolean {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      i += 1;
      if (!inClass && next !== '' && 'bBAz'.includes(next)) continue;
      out += c + next;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') out += pattern[++i];
    } else if (c !== '^' && c !== '$') {
      out += c;
    }
  }
  try {
    return new RegExp(`^(?:${out})$`, 'u').test('');
  } catch {
    return true;
  }
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
  return `if(${fitsSql(rule, text, maxLength)}, replaceRegexpAll(${text}, ${literal(rule.pattern)}, ${literal(rewriteOf(rule.alias))}), ${text})`;
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

/** The rule tried on the path `/`: ClickHouse refuses a pattern it cannot compile, or an alias naming a group the pattern lacks. */
export function ruleCheckSql(rule: PathRule, maxLength: number): Statement {
  if (mayMatchEmpty(rule.pattern)) throw new Error('a pattern that can match an empty string is replaced differently by ClickHouse; make it match at least one character');
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

// Path cleaning in DuckDB SQL (queries/pathCleaning.ts says what it is): trailing slashes trimmed,
// then each rule's RE2 pattern replaced by its alias, never past `maxLength` characters. The paths
// query cleans its pages with `cleanedPagesSql`; checking and tracing rules run the single steps.

import type { Statement } from '../engine.js';
import { Binder } from '../sql.js';

export interface PathRule {
  pattern: string;
  alias: string;
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
export function growthOf(alias: string): { literal: number; groups: number } {
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
 * fit in `maxLength` characters. With L the text's length, u its length with every match removed and w
 * with every match made one character, the w − u matches cover L − u characters and the result is
 * at most u + (w − u)·literal + (L − u)·groups. The first test, from L alone (at most L + 1 matches
 * covering at most L characters), spares most paths the two extra passes; CASE runs them only where
 * it fails, and neither is longer than 2L + 1.
 */
function fitsSql(b: Binder, rule: PathRule, text: string, maxLength: number): string {
  const { literal, groups } = growthOf(rule.alias);
  const max = b.bind(maxLength);
  const pattern = b.bind(rule.pattern);
  const removed = `length(regexp_replace(${text}, ${pattern}, '', 'g'))`;
  const marked = `length(regexp_replace(${text}, ${pattern}, 'x', 'g'))`;
  const byLength = `length(${text}) * ${b.bind(1 + literal + groups)} + ${b.bind(literal)} <= ${max}`;
  const byMatches = `${b.bind(literal)} * ${marked} + ${b.bind(1 - literal - groups)} * ${removed} + ${b.bind(groups)} * length(${text}) <= ${max}`;
  return `CASE WHEN ${byLength} THEN true ELSE ${byMatches} END`;
}

/** One rule applied to `text`: every match of its pattern replaced by its alias, unless the result could pass `maxLength`. */
function ruleSql(b: Binder, rule: PathRule, text: string, maxLength: number): string {
  return `CASE WHEN ${fitsSql(b, rule, text, maxLength)} THEN regexp_replace(${text}, ${b.bind(rule.pattern)}, ${b.bind(rule.alias)}, 'g') ELSE ${text} END`;
}

/**
 * `(path, cleaned)` for the rows of `paths`, a statement giving a `path` column: trimmed, then each
 * rule in order. Each rule is a level of its own, so each reads the previous result as a column
 * rather than repeating its expression.
 */
export function cleanedPagesSql(b: Binder, rules: readonly PathRule[], paths: string, maxLength: number): string {
  const trimmed = `SELECT path, ${trimmedSql('path')} AS s FROM (${paths})`;
  const cleaned = rules.reduce((from, r) => `SELECT path, ${ruleSql(b, r, 's', maxLength)} AS s FROM (${from})`, trimmed);
  return `SELECT path, s AS cleaned FROM (${cleaned})`;
}

/** The rule tried on the path `/`: DuckDB refuses a pattern or an alias it cannot run. */
export function ruleCheckSql(rule: PathRule, maxLength: number): Statement {
  const b = new Binder();
  return { sql: `SELECT ${ruleSql(b, rule, b.bind('/'), maxLength)} AS cleaned`, params: b.values };
}

/** The path trimmed (`s`). */
export function trimmedPathSql(path: string): Statement {
  const b = new Binder();
  return { sql: `SELECT ${trimmedSql(b.bind(path))} AS s`, params: b.values };
}

/** One rule on `text`: whether it `matched`, whether the result `fits`, and the `result`. */
export function ruleStepSql(text: string, rule: PathRule, maxLength: number): Statement {
  const b = new Binder();
  const s = b.bind(text);
  return { sql: `SELECT regexp_matches(${s}, ${b.bind(rule.pattern)}) AS matched, ${fitsSql(b, rule, s, maxLength)} AS fits, ${ruleSql(b, rule, s, maxLength)} AS result`, params: b.values };
}

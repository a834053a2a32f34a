// A rule's conditions (docs/labeled-events.md#matching) and their preparation for the engine, whose
// builder (engine/<kind>/labeledSql.ts) makes them one condition on an event row for derivation
// over all history and the preview; the ingest writer matches with the same conditions read in
// TypeScript (matchRow.ts).

import type { RuleMatch } from '../engine/ruleMatch.js';
import { normalizePageUrl } from '../behavior/pageUrl.js';
import { parseSelector } from './selector.js';

export const BASE_EVENTS = ['pp.click', 'pp.form_submit', 'pp.page_view'] as const;
export type BaseEvent = (typeof BASE_EVENTS)[number];

export interface RuleAttribute {
  name: string;
  op: 'eq' | 'contains' | 'exists';
  value?: string;
}

/** What a rule matches, as checkRuleBody leaves it: empty strings null, the text to match collapsed. */
export interface RuleConditions {
  base_event: BaseEvent;
  selector: string | null;
  url_pattern: string | null;
  match_text: string | null;
  attributes: RuleAttribute[];
}

/**
 * A `*` pattern as an RE2 expression for regexp_full_match: the rest literal, `*` any run of
 * characters, newlines included. RE2 runs in time linear in its subject, where LIKE backtracks
 * exponentially on patterns with many `*`.
 */
export function wildcardRegex(pattern: string): string {
  return `(?s)${pattern
    .split('*')
    .map((s) => s.replace(/[\\.+?()|[\]{}^$]/g, '\\$&'))
    .join('.*')}`;
}

/**
 * What a rule matches, prepared for the engine's condition (engine/<kind>/labeledSql.ts): its
 * selector parsed, its url_pattern made a full-match expression (with `*`) or an exact normalized
 * page, matched on the page's path when it starts with `/`.
 */
export function matchOf(rule: RuleConditions & { project_id: number }): RuleMatch {
  const pattern = rule.url_pattern;
  const onPath = pattern?.startsWith('/') ?? false;
  return {
    project_id: rule.project_id,
    base_event: rule.base_event,
    chain: rule.selector ? parseSelector(rule.selector) : null,
    page: pattern ? (pattern.includes('*') ? { onPath, regex: wildcardRegex(pattern) } : { onPath, equals: normalizePageUrl(pattern) ?? pattern }) : null,
    match_text: rule.match_text,
    attributes: rule.attributes,
  };
}

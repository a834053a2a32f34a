// What a labeled-event rule matches, as the engines' builders take it: prepared by
// labeled/matchSql.ts from the rule's text, so no engine parses a selector or a URL pattern.

export interface AttributeMatch {
  name: string;
  op: 'eq' | 'contains' | 'exists';
  value?: string;
}

/** One compound of a parsed selector (labeled/selector.ts). */
export interface CompoundMatch {
  tag?: string;
  ids: string[];
  classes: string[];
  attributes: Array<{ name: string; op: 'exists' | 'eq'; value?: string }>;
  nthChild: number[];
}

/** What a rule matches, prepared for SQL. */
export interface RuleMatch {
  project_id: number;
  base_event: string;
  /** The parsed selector: compounds left to right, `combinators[i]` joining compounds i and i + 1. */
  chain: { compounds: CompoundMatch[]; combinators: Array<'child' | 'descendant'> } | null;
  /** The URL pattern: an RE2 full match or an exact normalized page, on the page's path when `onPath`. */
  page: { onPath: boolean; regex: string } | { onPath: boolean; equals: string } | null;
  match_text: string | null;
  attributes: AttributeMatch[];
}

/** A rule that derives events: what it matches, its id and the name it gives. */
export interface DerivingRule extends RuleMatch {
  id: number;
  event_name: string;
}

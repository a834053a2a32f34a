// A rule as the editor holds it (strings, never null) and the body the API takes from it: empty
// fields are left out, and a page view carries none of the element conditions. Also the one-line
// summary of a rule's conditions the list shows.

import type { AttributeOp, BaseEvent, Conditions, Rule, RuleAttribute, RuleBody } from './labeledApi';

export const BASE_EVENTS: Array<[BaseEvent, string]> = [
  ['pp.click', 'pp.click: a click'],
  ['pp.form_submit', 'pp.form_submit: a form sent'],
  ['pp.page_view', 'pp.page_view: a page view'],
];

/** The attribute names the tracker captures (besides any data-pp-* name). */
export const ATTRIBUTE_NAMES = ['id', 'class', 'href', 'name', 'type', 'role', 'aria-label', 'data-pp-'];
export const MAX_ATTRIBUTES = 10;

export interface AttributeRow {
  name: string;
  op: AttributeOp;
  value: string;
}

export interface RuleForm {
  base_event: BaseEvent;
  selector: string;
  url_pattern: string;
  match_text: string;
  attributes: AttributeRow[];
  event_name: string;
  display_name: string;
  description: string;
}

export const EMPTY_FORM: RuleForm = { base_event: 'pp.click', selector: '', url_pattern: '', match_text: '', attributes: [], event_name: '', display_name: '', description: '' };

/** Whether the base event has an element (a page view has none: only its URL applies). */
export const hasElement = (base: BaseEvent) => base !== 'pp.page_view';

export function formOf(rule: Rule): RuleForm {
  return {
    base_event: rule.base_event,
    selector: rule.selector ?? '',
    url_pattern: rule.url_pattern ?? '',
    match_text: rule.match_text ?? '',
    attributes: (rule.attributes ?? []).map((a) => ({ name: a.name, op: a.op, value: a.value ?? '' })),
    event_name: rule.event_name,
    display_name: rule.display_name ?? '',
    description: rule.description ?? '',
  };
}

const given = (text: string) => (text.trim() === '' ? undefined : text.trim());

function attributeOf(row: AttributeRow): RuleAttribute {
  return row.op === 'exists' ? { name: row.name.trim(), op: row.op } : { name: row.name.trim(), op: row.op, value: row.value };
}

/** The conditions alone: what the preview counts with. */
export function conditionsBody(form: RuleForm): Conditions {
  const body: Conditions = { base_event: form.base_event };
  const url = given(form.url_pattern);
  if (url !== undefined) body.url_pattern = url;
  if (!hasElement(form.base_event)) return body;
  const selector = given(form.selector);
  const text = given(form.match_text);
  if (selector !== undefined) body.selector = selector;
  if (text !== undefined) body.match_text = text;
  if (form.attributes.length > 0) body.attributes = form.attributes.map(attributeOf);
  return body;
}

/** The whole body of a create or a replace (which sets every field: one left out becomes empty). */
export function ruleBody(form: RuleForm): RuleBody {
  const body: RuleBody = { ...conditionsBody(form), event_name: form.event_name.trim() };
  const display = given(form.display_name);
  const description = given(form.description);
  if (display !== undefined) body.display_name = display;
  if (description !== undefined) body.description = description;
  return body;
}

/** "button#buy · on /pricing/* · text “Start trial” · [data-pp-name = trial]", or what it labels without conditions. */
export function conditionsSummary(rule: Pick<Rule, 'base_event' | 'selector' | 'url_pattern' | 'match_text' | 'attributes'>): string {
  const parts: string[] = [];
  if (rule.selector) parts.push(rule.selector);
  for (const a of rule.attributes ?? []) parts.push(a.op === 'exists' ? `[${a.name}]` : `[${a.name} ${a.op === 'eq' ? '=' : 'contains'} ${a.value ?? ''}]`);
  if (rule.match_text) parts.push(`text “${rule.match_text}”`);
  if (rule.url_pattern) parts.push(`on ${rule.url_pattern}`);
  return parts.length > 0 ? parts.join(' · ') : `every ${rule.base_event}`;
}

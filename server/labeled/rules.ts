// Labeled-event rules of a project (docs/labeled-events.md): checking a body, storing rules and
// moving them between states. Every change that alters which events a rule derives queues a sync
// job (sync.ts) that brings the derived events in line with the rule as it then is.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { ConflictError, NotFoundError, ValidationError, type FieldProblem } from '../ground/errors.js';
import { kickJobs, queueJob, type JobState } from '../store/jobs.js';
import { ATTRIBUTE_NAME } from '../ingest/elementColumns.js';
import type { BaseEvent, RuleAttribute, RuleConditions } from './matchSql.js';
import { compileRule, type RowMatcher } from './matchRow.js';
import { parseSelector, SelectorError } from './selector.js';

export const RULE_SYNC = 'labeled_event_sync';
export const MAX_RULES_PER_PROJECT = 200;
export const LIMITS = { event_name: 200, selector: 500, url_pattern: 2048, match_text: 200, display_name: 200, description: 1000, attributes: 10, attribute_value: 200 } as const;

export type RuleState = 'active' | 'disabled' | 'deleting';

/** A rule's conditions, names and texts as a body gives them, checked and with empty strings made null. */
export interface RuleInput extends RuleConditions {
  event_name: string;
  display_name: string | null;
  description: string | null;
}

export interface Materialization {
  state: JobState;
  derived_events: number | null;
  finished_at: string | null;
  error: string | null;
}

export interface LabeledEventRule extends RuleInput {
  id: number;
  state: RuleState;
  materialization: Materialization | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** A stored rule's conditions, as the writer and jobs read them. */
export interface StoredRule extends RuleConditions {
  id: number;
  project_id: number;
  event_name: string;
  state: RuleState;
}

interface RuleRow extends Omit<LabeledEventRule, 'attributes' | 'materialization'> {
  project_id: number;
  attributes: string;
}

/** The text a rule's `match_text` is compared with: trimmed, runs of whitespace made one space. */
const textPattern = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** Attribute names the attribute conditions accept: what the tracker captures (docs/tracker.md#elements). */
const CAPTURED_ATTRIBUTES = new Set(['id', 'class', 'href', 'name', 'type', 'role', 'aria-label']);
const isCaptured = (name: string) => CAPTURED_ATTRIBUTES.has(name) || (name.startsWith('data-pp-') && ATTRIBUTE_NAME.test(name));
// Separators of the stored attribute encoding, and other control characters, never match anything.
const CONTROL = /[\u0000-\u001f\u007f]/;

type Body = Record<string, unknown>;

/**
 * Checks a create, replace or preview body beyond its schema (which ajv already checked): the
 * selector's syntax, the conditions the base event allows, the attribute names. Answers every
 * problem at once, the first named in `details.field`.
 */
export function checkRuleBody(body: Body, options: { eventNameRequired: boolean }): RuleInput {
  const problems: FieldProblem[] = [];
  const text = (field: string): string | null => {
    const v = body[field];
    if (typeof v !== 'string' || v.trim() === '') return null;
    // Whitespace of a text to match is collapsed to spaces; the description is free text.
    const checked = field === 'match_text' ? textPattern(v) : v;
    if (CONTROL.test(checked) && field !== 'description') problems.push({ field, message: `${field} must not contain control characters` });
    return v;
  };
  const base = body.base_event as BaseEvent;
  const selector = text('selector');
  const urlPattern = text('url_pattern');
  const matchText = text('match_text');
  const eventName = text('event_name');
  const displayName = text('display_name');
  const description = text('description');
  const attributes = ((body.attributes as RuleAttribute[] | null | undefined) ?? []).map((a) => ({ ...a }));

  if (eventName === null) {
    if (options.eventNameRequired) problems.push({ field: 'event_name', message: 'event_name is required' });
  } else if (eventName.startsWith('pp.')) {
    problems.push({ field: 'event_name', message: 'event names starting with pp. are autocapture’s own; choose another' });
  } else if (eventName !== eventName.trim()) {
    problems.push({ field: 'event_name', message: 'event_name must not start or end with whitespace' });
  }
  if (base === 'pp.page_view') {
    for (const [field, v] of [
      ['selector', selector],
      ['match_text', matchText],
    ] as const) {
      if (v !== null) problems.push({ field, message: `a page view has no element: ${field} does not apply to pp.page_view` });
    }
    if (attributes.length > 0) problems.push({ field: 'attributes', message: 'a page view has no element: attributes do not apply to pp.page_view' });
  }
  if (selector !== null) {
    try {
      parseSelector(selector);
    } catch (err) {
      if (!(err instanceof SelectorError)) throw err;
      problems.push({ field: 'selector', message: err.message, ...(err.unsupported ? { unsupported: err.unsupported } : {}), position: err.position } as FieldProblem);
    }
  }
  attributes.forEach((a, i) => {
    const field = `attributes[${i}]`;
    a.name = a.name.toLowerCase();
    if (!isCaptured(a.name)) {
      problems.push({ field: `${field}.name`, message: `the tracker does not capture ${a.name}: use id, class, href, name, type, role, aria-label or a data-pp-* attribute` });
    }
    if (a.op === 'exists') delete a.value;
    else if (typeof a.value !== 'string' || a.value === '') problems.push({ field: `${field}.value`, message: `${a.op} needs a value` });
    else if (CONTROL.test(a.value)) problems.push({ field: `${field}.value`, message: 'the value must not contain control characters' });
  });
  if (problems.length > 0) throw new ValidationError(problems[0]!.message, problems);
  return {
    base_event: base,
    selector: selector?.trim() ?? null,
    url_pattern: urlPattern?.trim() ?? null,
    match_text: matchText === null ? null : textPattern(matchText),
    attributes,
    event_name: eventName ?? '',
    display_name: displayName,
    description,
  };
}

const COLUMNS = `r.id, r.project_id, r.base_event, r.selector, r.url_pattern, r.match_text, r.attributes, r.event_name, r.display_name, r.description,
  r.state, r.created_at, r.updated_at, r.created_by, r.updated_by`;

/**
 * Rules with their latest job, and the count of the latest one that succeeded (shown while
 * another runs), in one statement.
 */
const WITH_JOBS = `SELECT ${COLUMNS}, j.state AS job_state, j.finished_at AS job_finished_at, j.error AS job_error,
    (SELECT s.derived_events FROM labeled_event_jobs s JOIN jobs sj ON sj.id = s.job_id
      WHERE s.rule_id = r.id AND sj.state = 'succeeded' ORDER BY s.job_id DESC LIMIT 1) AS job_count
  FROM labeled_event_rules r LEFT JOIN jobs j ON j.id = (SELECT max(job_id) FROM labeled_event_jobs WHERE rule_id = r.id)`;

type PresentedRow = RuleRow & { job_state: JobState | null; job_finished_at: string | null; job_error: string | null; job_count: number | null };

function present(row: PresentedRow): LabeledEventRule {
  const { project_id: _project, attributes, job_state, job_finished_at, job_error, job_count, ...rest } = row;
  const materialization = job_state === null ? null : { state: job_state, derived_events: job_count, finished_at: job_finished_at, error: job_error };
  return { ...rest, attributes: JSON.parse(attributes) as RuleAttribute[], materialization };
}

export function listRules(meta: MetaDb, projectId: number): LabeledEventRule[] {
  const rows = meta.prepare(`${WITH_JOBS} WHERE r.project_id = ? ORDER BY r.event_name`).all(projectId) as PresentedRow[];
  return rows.map(present);
}

export function getRule(meta: MetaDb, projectId: number, ruleId: number): LabeledEventRule {
  const row = meta.prepare(`${WITH_JOBS} WHERE r.project_id = ? AND r.id = ?`).get(projectId, ruleId) as PresentedRow | undefined;
  if (!row) throw new NotFoundError('labeled-event rule not found');
  return present(row);
}

/** The rule as the sync job and the writer read it; undefined once it is gone. */
export function storedRule(meta: MetaDb, ruleId: number): StoredRule | undefined {
  const row = meta.prepare(`SELECT ${COLUMNS} FROM labeled_event_rules r WHERE r.id = ?`).get(ruleId) as RuleRow | undefined;
  return row && storedOf(row);
}

function storedOf(row: RuleRow): StoredRule {
  return {
    id: row.id,
    project_id: row.project_id,
    base_event: row.base_event,
    selector: row.selector,
    url_pattern: row.url_pattern,
    match_text: row.match_text,
    attributes: JSON.parse(row.attributes) as RuleAttribute[],
    event_name: row.event_name,
    state: row.state,
  };
}

/** An active rule with its conditions compiled for the rows the ingest writer is about to store. */
export interface ActiveRule extends StoredRule {
  matches: RowMatcher;
}

/** Active rules by project, then by base event. */
export type ActiveRules = Map<number, Map<string, ActiveRule[]>>;

/** Every active rule of the installation, by project and base event. */
function activeRules(meta: MetaDb): ActiveRules {
  const rows = meta.prepare(`SELECT ${COLUMNS} FROM labeled_event_rules r WHERE r.state = 'active' ORDER BY r.id`).all() as RuleRow[];
  const byProject: ActiveRules = new Map();
  for (const row of rows) {
    let byEvent = byProject.get(row.project_id);
    if (!byEvent) byProject.set(row.project_id, (byEvent = new Map()));
    let list = byEvent.get(row.base_event);
    if (!list) byEvent.set(row.base_event, (list = []));
    const rule = storedOf(row);
    list.push({ ...rule, matches: compileRule(rule) });
  }
  return byProject;
}

function nameTaken(meta: MetaDb, projectId: number, eventName: string, except: number | null): void {
  const other = meta.prepare('SELECT id, state FROM labeled_event_rules WHERE project_id = ? AND event_name = ? AND id IS NOT ?').get(projectId, eventName, except) as
    | { id: number; state: RuleState }
    | undefined;
  if (!other) return;
  const message =
    other.state === 'deleting'
      ? `the rule ${other.id} being deleted still uses the event name ${eventName}; try again in a few seconds`
      : `the rule ${other.id} already derives events named ${eventName}`;
  throw new ConflictError(message, 'conflict', { field: 'event_name', rule_id: other.id, state: other.state });
}

/** Queues a sync of the rule, unless one is already queued (which will read the rule as it is then). */
function queueSync(meta: MetaDb, projectId: number, ruleId: number, now: Date): void {
  const pending = meta.prepare("SELECT 1 FROM labeled_event_jobs l JOIN jobs j ON j.id = l.job_id WHERE l.rule_id = ? AND j.state = 'queued'").get(ruleId);
  if (pending) return;
  const jobId = queueJob(meta, RULE_SYNC, projectId, now);
  meta.prepare('INSERT INTO labeled_event_jobs (job_id, project_id, rule_id) VALUES (?, ?, ?)').run(jobId, projectId, ruleId);
}

/** The active rules of the installation by project, read once per change of rules (one per Services). */
export class ActiveRulesCache {
  private rules: ActiveRules | undefined;

  constructor(private readonly meta: MetaDb) {}

  get(): ActiveRules {
    this.rules ??= activeRules(this.meta);
    return this.rules;
  }

  forget(): void {
    this.rules = undefined;
  }
}

export function activeRulesOf(services: Services): ActiveRules {
  return services.labeledRules.get();
}

/** After every committed change of rules: events stored from now on see it; its job runs. */
function changed(services: Services): void {
  services.labeledRules.forget();
  kickJobs(services);
}

export function createRule(services: Services, projectId: number, userId: number, input: RuleInput): LabeledEventRule {
  const { meta, clock } = services;
  const id = meta
    .transaction(() => {
      const count = (meta.prepare('SELECT count(*) AS n FROM labeled_event_rules WHERE project_id = ?').get(projectId) as { n: number }).n;
      if (count >= MAX_RULES_PER_PROJECT) throw new ValidationError(`a project has at most ${MAX_RULES_PER_PROJECT} labeled-event rules`, 'event_name', { limit: MAX_RULES_PER_PROJECT });
      nameTaken(meta, projectId, input.event_name, null);
      const now = clock.now();
      const ruleId = Number(
        meta
          .prepare(`INSERT INTO labeled_event_rules (project_id, base_event, selector, url_pattern, match_text, attributes, event_name, display_name, description,
            state, created_at, updated_at, created_by, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?)`)
          .run(
            projectId,
            input.base_event,
            input.selector,
            input.url_pattern,
            input.match_text,
            JSON.stringify(input.attributes),
            input.event_name,
            input.display_name,
            input.description,
            now.toISOString(),
            now.toISOString(),
            userId,
            userId,
          ).lastInsertRowid,
      );
      queueSync(meta, projectId, ruleId, now);
      return ruleId;
    })
    .immediate();
  changed(services);
  return getRule(meta, projectId, id);
}

const MATCHING_FIELDS = ['base_event', 'selector', 'url_pattern', 'match_text', 'attributes', 'event_name'] as const;

/** PATCH: every field replaced; an active rule whose matching or name changed derives its events again. */
export function replaceRule(services: Services, projectId: number, ruleId: number, userId: number, input: RuleInput): LabeledEventRule {
  const { meta, clock } = services;
  meta
    .transaction(() => {
      const before = getRule(meta, projectId, ruleId);
      if (before.state === 'deleting') throw stateConflict(before, 'changed');
      nameTaken(meta, projectId, input.event_name, ruleId);
      const now = clock.now();
      meta
        .prepare(`UPDATE labeled_event_rules SET base_event = ?, selector = ?, url_pattern = ?, match_text = ?, attributes = ?, event_name = ?,
          display_name = ?, description = ?, updated_at = ?, updated_by = ? WHERE id = ?`)
        .run(
          input.base_event,
          input.selector,
          input.url_pattern,
          input.match_text,
          JSON.stringify(input.attributes),
          input.event_name,
          input.display_name,
          input.description,
          now.toISOString(),
          userId,
          ruleId,
        );
      const matchingChanged = MATCHING_FIELDS.some((f) => JSON.stringify(before[f]) !== JSON.stringify(input[f]));
      if (matchingChanged && before.state === 'active') queueSync(meta, projectId, ruleId, now);
    })
    .immediate();
  changed(services);
  return getRule(meta, projectId, ruleId);
}

export type Transition = 'disable' | 'enable' | 'delete';

const TRANSITIONS: Record<Transition, { from: RuleState[]; to: RuleState; verb: string }> = {
  disable: { from: ['active'], to: 'disabled', verb: 'disabled' },
  enable: { from: ['disabled'], to: 'active', verb: 'enabled' },
  delete: { from: ['active', 'disabled'], to: 'deleting', verb: 'deleted' },
};

function stateConflict(rule: { id: number; state: RuleState }, verb: string): ConflictError {
  return new ConflictError(`the rule is ${rule.state}: it cannot be ${verb}`, 'conflict', { state: rule.state });
}

/** Disable, enable or delete: 409 naming the state when the rule is not in one it can leave that way. */
export function transition(services: Services, projectId: number, ruleId: number, userId: number, what: Transition): void {
  const { meta, clock } = services;
  const t = TRANSITIONS[what];
  meta
    .transaction(() => {
      const rule = getRule(meta, projectId, ruleId);
      if (!t.from.includes(rule.state)) throw stateConflict(rule, t.verb);
      const now = clock.now();
      meta.prepare('UPDATE labeled_event_rules SET state = ?, updated_at = ?, updated_by = ? WHERE id = ?').run(t.to, now.toISOString(), userId, ruleId);
      queueSync(meta, projectId, ruleId, now);
    })
    .immediate();
  changed(services);
}

/**
 * Rules left deleting without a queued or running job (a teardown that failed): queued again, so
 * that a deleting rule always ends. Run at start.
 */
export function resumeDeletions(services: Services): void {
  const { meta, clock } = services;
  const stuck = meta
    .prepare(`SELECT r.id, r.project_id FROM labeled_event_rules r WHERE r.state = 'deleting' AND NOT EXISTS (
      SELECT 1 FROM labeled_event_jobs l JOIN jobs j ON j.id = l.job_id WHERE l.rule_id = r.id AND j.state IN ('queued', 'running'))`)
    .all() as Array<{ id: number; project_id: number }>;
  for (const r of stuck) meta.transaction(() => queueSync(meta, r.project_id, r.id, clock.now())).immediate();
}

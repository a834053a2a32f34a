// A rule, new or edited: the base event, the conditions (selector, page, text, attributes; a page
// view has only its page), the event name and the words for people. The count of matching events
// of the last 30 days follows the conditions as they change; saving a rule that matches nothing
// asks first. A refusal names its field, and is shown there.

import { useId, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { ApiError } from '../api/client';
import { useSession } from '../app/session';
import { formatNumber } from '../ui/format';
import { Field, Select, Submit } from '../ui/forms';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { AttributeRows } from './AttributeRows';
import { ConfirmDialog } from '../ui/ConfirmButton';
import { createRule, getRule, replaceRule, type BaseEvent, type PickerCapture, type Rule } from './labeledApi';
import { Picker } from './Picker';
import { useCanEditRules } from './Rules';
import { BASE_EVENTS, EMPTY_FORM, conditionsBody, formOf, hasElement, ruleBody, type RuleForm } from './ruleForm';
import { usePreview, type PreviewState } from './usePreview';
import './labeled.css';

export function RuleEditor() {
  const { params } = useRoute();
  const projectId = Number(params.projectId);
  const ruleId = params.ruleId === undefined ? undefined : Number(params.ruleId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const canEdit = useCanEditRules();
  const stored = useAsync(() => (ruleId === undefined ? Promise.resolve(undefined) : getRule(projectId, ruleId)), [projectId, ruleId]);
  const list = `/projects/${projectId}/labeled-events`;

  if (!project) return <Empty title="No such project in this organization" />;
  const title = ruleId === undefined ? 'New labeled event' : stored.data ? `Labeled event ${stored.data.event_name}` : 'Labeled event';
  return (
    <section aria-labelledby="rule-title">
      <p class="labeled-back">
        <a href={list}>← All labeled events</a>
      </p>
      <div class="page-header">
        <h1 id="rule-title">{title}</h1>
        <span class="muted">{project.name}</span>
      </div>
      {!canEdit ? (
        <Empty title="Only analysts, admins and owners change labeled-event rules">
          <a href={list}>Back to the rules</a>
        </Empty>
      ) : stored.error ? (
        <ErrorNote error={stored.error} />
      ) : stored.loading ? (
        <Loading label="Loading the rule…" />
      ) : (
        <EditorForm key={ruleId ?? 'new'} projectId={projectId} rule={stored.data} />
      )}
    </section>
  );
}

/** Whether a field the server names is on the page (a page view has no element fields). */
function isShown(field: string, form: RuleForm): boolean {
  if (['url_pattern', 'event_name', 'display_name', 'description'].includes(field)) return true;
  if (!hasElement(form.base_event)) return false;
  if (['selector', 'match_text', 'attributes'].includes(field)) return true;
  const row = /^attributes\[(\d+)\]\.(name|op|value)$/.exec(field);
  return row !== null && Number(row[1]) < form.attributes.length;
}

/**
 * The problems of a refusal (422, or 409 for a taken event name) by the field they name, for the
 * fields on the page: every one of `details.errors`, else the one of `details.field`.
 */
function problemsOf(error: unknown, form: RuleForm): Map<string, string> {
  const out = new Map<string, string>();
  if (!(error instanceof ApiError) || (error.status !== 422 && error.status !== 409)) return out;
  const listed = Array.isArray(error.details.errors) ? (error.details.errors as Array<{ field?: unknown; message?: unknown }>) : [];
  const named = listed.length > 0 ? listed : [{ field: error.details.field, message: error.message }];
  for (const { field, message } of named) {
    if (typeof field === 'string' && typeof message === 'string' && isShown(field, form) && !out.has(field)) out.set(field, message);
  }
  return out;
}

const completeRows = (form: RuleForm) => !hasElement(form.base_event) || form.attributes.every((a) => a.name.trim() !== '' && (a.op === 'exists' || a.value !== ''));

function EditorForm({ projectId, rule }: { projectId: number; rule?: Rule }) {
  const { route } = useLocation();
  const [form, setForm] = useState<RuleForm>(() => (rule ? formOf(rule) : EMPTY_FORM));
  const [askZero, setAskZero] = useState(false);
  const save = useAction();
  const preview = usePreview(projectId, completeRows(form) ? conditionsBody(form) : undefined);
  const list = `/projects/${projectId}/labeled-events`;
  const isNew = rule === undefined;

  // An edit makes the last refusal of a save stale: the preview's answer speaks for the new fields.
  const set = (part: Partial<RuleForm>) => {
    save.clear();
    setForm((f) => ({ ...f, ...part }));
  };
  const store = async () => {
    const body = ruleBody(form);
    if (rule) await replaceRule(projectId, rule.id, body);
    else await createRule(projectId, body);
    route(list);
  };
  const submit = save.handle(async () => {
    const count = await preview.countFor(conditionsBody(form));
    if (count === 0) setAskZero(true);
    else await store();
  });
  const picked = (capture: PickerCapture) => {
    save.clear();
    setForm((f) => ({
      ...f,
      selector: capture.selector ?? f.selector,
      url_pattern: capture.url_pattern ?? f.url_pattern,
      match_text: f.base_event === 'pp.click' && capture.text ? capture.text : f.match_text,
    }));
  };

  // A refusal of the save goes beside its field; a refusal of the preview too, as it is typed.
  const error = save.error ?? (preview.error instanceof ApiError && preview.error.status === 422 ? preview.error : undefined);
  const problems = problemsOf(error, form);
  const problem = (field: string) => problems.get(field);
  const element = hasElement(form.base_event);

  if (rule?.state === 'deleting') return <Empty title="This rule is being deleted">It cannot be changed; it leaves the list once its derived events are removed.</Empty>;
  return (
    <>
      <form class="card labeled-form" onSubmit={submit} noValidate aria-labelledby="conditions-title">
        <h2 id="conditions-title">What it labels</h2>
        <Select
          label="Base event"
          value={form.base_event}
          onValue={(v) => set({ base_event: v as BaseEvent })}
          hint={element ? 'The autocaptured event this rule labels.' : 'A page view has no element: only its page applies.'}
        >
          {BASE_EVENTS.map(([value, label]) => (
            <option value={value}>{label}</option>
          ))}
        </Select>
        {element && (
          <Field
            label="Selector"
            value={form.selector}
            onValue={(v) => set({ selector: v })}
            placeholder={form.base_event === 'pp.form_submit' ? 'form#signup' : 'button#start-trial'}
            hint="CSS: a tag, #id, .class, [attr] or [attr=value], :nth-child(n), joined by a space (any ancestor) or > (the parent). It may match the clicked element or an ancestor of it. Empty for any element."
            problem={problem('selector')}
          />
        )}
        <Field
          label="URL pattern"
          value={form.url_pattern}
          onValue={(v) => set({ url_pattern: v })}
          placeholder="/pricing/*"
          hint="An exact URL, or * for any run of characters. Starting with / it is compared with the path only, on any host. Empty for any page."
          problem={problem('url_pattern')}
        />
        {element && (
          <Field
            label="Element text"
            value={form.match_text}
            onValue={(v) => set({ match_text: v })}
            placeholder="Start trial"
            hint="The clicked element's text, in any case. Texts are collected in the standard privacy mode only. Empty for any text."
            problem={problem('match_text')}
          />
        )}
        {element && <AttributeRows rows={form.attributes} onRows={(attributes) => set({ attributes })} problem={problem} />}
        <PreviewLine preview={preview} />
        <h2 id="naming-title">The event it makes</h2>
        <Field
          label="Event name"
          required
          value={form.event_name}
          onValue={(v) => set({ event_name: v })}
          placeholder="start_trial"
          hint="What reports call the derived events; unique in the project, not starting with pp."
          problem={problem('event_name')}
        />
        <Field label="Display name" value={form.display_name} onValue={(v) => set({ display_name: v })} placeholder="Start trial" problem={problem('display_name')} />
        <TextArea label="Description" value={form.description} onValue={(v) => set({ description: v })} problem={problem('description')} />
        <ErrorNote error={error && problems.size === 0 ? error : undefined} />
        <div class="filter-add">
          <Submit busy={save.busy}>{isNew ? 'Create the rule' : 'Save the rule'}</Submit>
          <a class="button secondary" href={list}>
            Cancel
          </a>
        </div>
        {!isNew && rule.state === 'active' && <p class="muted">Changing the conditions or the event name derives the rule's events again over all history.</p>}
      </form>
      {element && <Picker projectId={projectId} onPicked={picked} />}
      {askZero && (
        <ConfirmDialog
          title="This rule matches no event of the last 30 days. Save anyway?"
          confirmLabel="Save anyway"
          danger={false}
          testId="zero-match-dialog"
          onClose={() => setAskZero(false)}
          onConfirm={async () => {
            setAskZero(false);
            void save.run(store);
          }}
        >
          <p>Check the selector, page and text: a rule that matches nothing labels no event until one like it arrives.</p>
        </ConfirmDialog>
      )}
    </>
  );
}

function PreviewLine({ preview }: { preview: PreviewState }) {
  const count = preview.answer?.count;
  const state = !preview.countable ? 'incomplete' : preview.loading ? 'loading' : preview.error ? 'error' : count !== undefined ? 'ready' : 'loading';
  return (
    <div class="labeled-preview" data-testid="preview" data-state={state} data-count={state === 'ready' ? count : undefined}>
      <p role="status" aria-live="polite">
        {state === 'incomplete'
          ? 'Complete the attribute conditions to count the matching events.'
          : state === 'loading'
            ? 'Counting matching events…'
            : state === 'error'
              ? 'The matching events could not be counted.'
              : `${formatNumber(count)} matching ${count === 1 ? 'event' : 'events'} in the last 30 days`}
      </p>
      {state === 'error' && !(preview.error instanceof ApiError && preview.error.status === 422) && <ErrorNote error={preview.error} />}
    </div>
  );
}

function TextArea({ label, value, onValue, problem }: { label: string; value: string; onValue(v: string): void; problem?: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        value={value}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(e) => onValue((e.currentTarget as HTMLTextAreaElement).value)}
      />
      {problem && (
        <div class="problem" id={`${id}-problem`}>
          {problem}
        </div>
      )}
    </div>
  );
}

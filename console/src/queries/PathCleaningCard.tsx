// The project's path-cleaning rules: ordered regular expressions that turn page URLs into the
// items of the paths insight. Admins open them for editing, then add, change, reorder, remove and
// save them; everyone can try a URL against the rules as they stand on the page and see each
// rule's step. The server checks the patterns and keeps the revision.

import { useEffect, useId, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { useAction } from '../ui/useAction';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { formatDateTime } from '../ui/format';

type Rule = Schemas['PathRule'];

export function PathCleaningCard({ projectId, canEdit }: { projectId: number; canEdit: boolean }) {
  const path = { params: { path: { id: projectId } } };
  const stored = useAsync(() => ok(api.GET('/api/v1/projects/{id}/path-cleaning', path)), [projectId]);
  const [current, setCurrent] = useState<Schemas['PathCleaning']>();
  const [rules, setRules] = useState<Rule[]>([]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  useEffect(() => {
    if (!stored.data) return;
    setCurrent(stored.data);
    setRules(stored.data.rules);
  }, [stored.data]);
  const editable = canEdit && editing;

  const edit = (next: Rule[]) => {
    setRules(next);
    setSaved(false);
  };
  const change = (i: number, part: Partial<Rule>) => edit(rules.map((r, j) => (j === i ? { ...r, ...part } : r)));
  const move = (i: number, by: -1 | 1) => {
    const next = rules.slice();
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    edit(next);
  };
  const submit = save.handle(async () => {
    setSaved(false);
    const answer = await ok(api.PUT('/api/v1/projects/{id}/path-cleaning', { ...path, body: { rules } }));
    setCurrent(answer);
    setRules(answer.rules);
    setEditing(false);
    setSaved(true);
  });
  const cancel = () => {
    setRules(current?.rules ?? []);
    setEditing(false);
    save.clear();
  };
  const ruleProblem = (i: number, part: keyof Rule) => fieldProblem(save.error, `rules[${i}].${part}`);
  const elsewhere = save.error && !rules.some((_, i) => ruleProblem(i, 'pattern') || ruleProblem(i, 'alias')) ? save.error : undefined;
  const changed = current !== undefined && JSON.stringify(rules) !== JSON.stringify(current.rules);

  return (
    <div class="card" role="group" aria-labelledby="cleaning-title">
      <h2 id="cleaning-title">Path cleaning</h2>
      <p class="muted">
        A page view shows in paths as its URL's path without the host, query and trailing slash, then rewritten by each rule in order: every match of the pattern (a regular expression) becomes the
        alias, e.g. <code>/users/\d+</code> → <code>/users/:id</code>.
      </p>
      <ErrorNote error={stored.error} />
      {!current ? (
        !stored.error && <Loading />
      ) : (
        <>
          <p class="result-meta" data-testid="cleaning-revision">
            Revision {current.revision} · {current.updated_at ? `changed ${formatDateTime(current.updated_at)}` : 'never changed'}
          </p>
          <form onSubmit={submit} noValidate>
            {rules.length === 0 ? (
              <p class="muted">No rules yet.</p>
            ) : (
              <Table label="Path cleaning rules" class="rules" testId="cleaning-rules">
                <TableHead columns={['Order', 'Pattern', 'Alias']} actions={editable} />
                <tbody>
                  {rules.map((r, i) =>
                    editable ? (
                      <tr>
                        <td>{i + 1}</td>
                        <td>
                          <RuleInput label={`Rule ${i + 1} pattern`} value={r.pattern} problem={ruleProblem(i, 'pattern')} onValue={(v) => change(i, { pattern: v })} />
                        </td>
                        <td>
                          <RuleInput label={`Rule ${i + 1} alias`} value={r.alias} problem={ruleProblem(i, 'alias')} onValue={(v) => change(i, { alias: v })} />
                        </td>
                        <td class="actions">
                          <button type="button" class="button secondary small" aria-label={`Move rule ${i + 1} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                            Up
                          </button>
                          <button type="button" class="button secondary small" aria-label={`Move rule ${i + 1} down`} disabled={i === rules.length - 1} onClick={() => move(i, 1)}>
                            Down
                          </button>
                          <button type="button" class="button secondary small" aria-label={`Remove rule ${i + 1}`} onClick={() => edit(rules.filter((_, j) => j !== i))}>
                            Remove
                          </button>
                        </td>
                      </tr>
                    ) : (
                      <tr>
                        <td>{i + 1}</td>
                        <td>
                          <code>{r.pattern}</code>
                        </td>
                        <td>
                          <code>{r.alias}</code>
                        </td>
                      </tr>
                    ),
                  )}
                </tbody>
              </Table>
            )}
            <ErrorNote error={elsewhere} />
            {saved && (
              <p class="notice" role="status">
                Saved. Paths use the new rules from now on.
              </p>
            )}
            {editable && (
              <div class="filter-add">
                <button type="button" class="button secondary" onClick={() => edit([...rules, { pattern: '', alias: '' }])}>
                  Add a rule
                </button>
                <Submit busy={save.busy}>Save the rules</Submit>
                <button type="button" class="button secondary" onClick={cancel}>
                  Cancel
                </button>
                {changed && <span class="muted">Not saved yet.</span>}
              </div>
            )}
            {canEdit && !editing && (
              <button type="button" class="button secondary" onClick={() => (setEditing(true), setSaved(false))}>
                Edit the rules
              </button>
            )}
          </form>
          <TryUrl projectId={projectId} rules={editable ? rules : undefined} />
        </>
      )}
    </div>
  );
}

function RuleInput({ label, value, problem, onValue }: { label: string; value: string; problem?: string; onValue(v: string): void }) {
  const id = useId();
  return (
    <>
      <input
        id={id}
        class="rule-input"
        aria-label={label}
        value={value}
        spellcheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)}
      />
      {problem && (
        <div class="problem" id={`${id}-problem`}>
          {problem}
        </div>
      )}
    </>
  );
}

/** Cleans one URL with the rules as edited (admins) or as saved (everyone else), step by step. */
function TryUrl({ projectId, rules }: { projectId: number; rules?: Rule[] }) {
  const [url, setUrl] = useState('');
  const [trace, setTrace] = useState<Schemas['PathCleaningTrace']>();
  const { busy, error, handle } = useAction();
  const run = handle(async () => {
    setTrace(undefined);
    setTrace(await ok(api.POST('/api/v1/projects/{id}/path-cleaning/test', { params: { path: { id: projectId } }, body: { url: url.trim(), ...(rules ? { rules } : {}) } })));
  });
  return (
    <form class="form-grid" onSubmit={run} noValidate aria-label="Try a URL">
      <h3>Try a URL</h3>
      <Field
        label="URL or path"
        value={url}
        onValue={setUrl}
        placeholder="https://example.com/users/42?tab=1"
        hint={rules ? 'Tried with the rules as they are above, saved or not.' : 'Tried with the saved rules.'}
      />
      <div>
        <Submit busy={busy} variant="secondary">
          Try
        </Submit>
      </div>
      <ErrorNote error={error} />
      {trace && (
        <div data-testid="cleaning-trace">
          {trace.cleaned === null ? (
            <p>This URL has no path: its page views count as pp.page_view.</p>
          ) : (
            <p>
              Path <code>{trace.path}</code> shows in paths as <strong data-testid="cleaned-path">{trace.cleaned}</strong>
            </p>
          )}
          {trace.steps.length > 0 && (
            <Table label="Rules applied" testId="cleaning-steps">
              <TableHead columns={['Rule', 'Pattern', 'Alias', 'Matched', 'Result']} />
              <tbody>
                {trace.steps.map((s, i) => (
                  <tr>
                    <td>{i + 1}</td>
                    <td>
                      <code>{s.pattern}</code>
                    </td>
                    <td>
                      <code>{s.alias}</code>
                    </td>
                    <td class={s.matched ? 'matched-yes' : undefined}>{s.matched ? 'yes' : 'no'}</td>
                    <td>
                      <code>{s.result}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </div>
      )}
    </form>
  );
}

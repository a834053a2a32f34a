// Labeled events: every rule of the project in the API's order (by event name), with its base
// event, conditions, state and the latest derivation. Analysts and above disable, enable and
// delete rules here (deleting asks first) and open a rule to edit it; viewers only read. The list
// is read again while a rule is being deleted or its events are being derived or removed.

import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { formatDateTime, formatNumber } from '../ui/format';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAction } from '../ui/useAction';
import { ConfirmButton } from '../ui/ConfirmButton';
import { deleteRule, disableRule, enableRule, listRules, type Rule } from './labeledApi';
import { conditionsSummary } from './ruleForm';
import './labeled.css';

/** How often the list is read again while a rule's job is under way. */
const POLL_MS = 1000;

/** Analysts, admins and owners change rules; viewers read them. */
export function useCanEditRules(): boolean {
  const role = useSession().me?.org.role;
  return role === 'analyst' || role === 'admin' || role === 'owner';
}

const pending = (r: Rule) => r.state === 'deleting' || r.materialization?.state === 'queued' || r.materialization?.state === 'running';

export function Rules() {
  const projectId = Number(useRoute().params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const canEdit = useCanEditRules();
  const [rules, setRules] = useState<Rule[]>();
  const [loadError, setLoadError] = useState<Error>();
  const action = useAction();
  const [working, setWorking] = useState<number>();
  const generation = useRef(0);

  const load = () => {
    const mine = ++generation.current;
    listRules(projectId).then(
      (answer) => mine === generation.current && (setRules(answer.items), setLoadError(undefined)),
      (error: Error) => mine === generation.current && setLoadError(error),
    );
  };
  useEffect(() => {
    setRules(undefined);
    load();
  }, [projectId]);
  // A failed read keeps the rows already shown and is tried again while something is under way.
  useEffect(() => {
    if (!rules?.some(pending)) return;
    const timer = setTimeout(load, POLL_MS);
    return () => clearTimeout(timer);
  }, [rules, loadError]);

  const act = (rule: Rule, work: () => Promise<void>) =>
    action.run(async () => {
      setWorking(rule.id);
      try {
        await work();
      } finally {
        setWorking(undefined);
        load();
      }
    });

  if (!project) return <Empty title="No such project in this organization" />;
  const base = `/projects/${projectId}/labeled-events`;
  return (
    <section aria-labelledby="labeled-title">
      <div class="page-header">
        <h1 id="labeled-title">Labeled events</h1>
        <span class="muted">{project.name}</span>
        {canEdit && (
          <a class="button primary labeled-new" href={`${base}/new`}>
            New rule
          </a>
        )}
      </div>
      <p class="result-meta">
        A rule names the clicks, form submits or page views that mean something to your business. Its events are derived over all history and then as events arrive, and every report uses them like
        events sent by code.
      </p>
      <ErrorNote error={action.error} />
      <ErrorNote error={loadError} />
      {rules === undefined ? (
        !loadError && <Loading label="Loading the rules…" />
      ) : rules.length === 0 ? (
        <Empty title="No labeled events yet">
          A rule turns autocaptured clicks, form submits or page views into a named event, say a click on the pricing page's <em>Start trial</em> button into <code>start_trial</code>, without changing
          your site's code. Funnels, retention and every other report then use it like any event. {canEdit ? <a href={`${base}/new`}>New rule</a> : 'Analysts, admins and owners create rules.'}
        </Empty>
      ) : (
        <Table label="Rules" testId="labeled-rules">
          <TableHead columns={['Event name', 'Display name', 'Base event', 'Conditions', 'State', 'Derived events']} actions={canEdit} />
          <tbody>
            {rules.map((r) => (
              <tr data-rule-id={r.id} data-event-name={r.event_name}>
                <th scope="row">
                  {canEdit && r.state !== 'deleting' ? (
                    <a href={`${base}/${r.id}`}>
                      <code>{r.event_name}</code>
                    </a>
                  ) : (
                    <code>{r.event_name}</code>
                  )}
                </th>
                <td>{r.display_name ?? '—'}</td>
                <td>
                  <code>{r.base_event}</code>
                </td>
                <td class="labeled-conditions">
                  <code>{conditionsSummary(r)}</code>
                </td>
                <td>
                  <span class={`badge rule-${r.state}`} data-testid="rule-state" data-state={r.state}>
                    {r.state}
                  </span>
                </td>
                <td>
                  <MaterializationCell rule={r} />
                </td>
                {canEdit && (
                  <td class="actions">
                    {r.state !== 'deleting' && (
                      <>
                        <button
                          type="button"
                          class="button secondary small"
                          disabled={working === r.id}
                          aria-label={`${r.state === 'active' ? 'Disable' : 'Enable'} ${r.event_name}`}
                          onClick={() => void act(r, () => (r.state === 'active' ? disableRule : enableRule)(projectId, r.id))}
                        >
                          {r.state === 'active' ? 'Disable' : 'Enable'}
                        </button>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete ${r.event_name}`}
                          class="button danger small"
                          disabled={working === r.id}
                          title={`Delete the rule ${r.event_name}?`}
                          confirmLabel="Delete the rule"
                          testId="delete-rule-dialog"
                          onConfirm={async () => {
                            action.clear();
                            await deleteRule(projectId, r.id);
                            load();
                          }}
                        >
                          <p>
                            Its derived events ({formatNumber(r.labeled_events)} now) are removed from every report, then the rule is gone. The autocaptured events it labeled are kept. The name{' '}
                            <code>{r.event_name}</code> is free again once the deletion is done.
                          </p>
                        </ConfirmButton>
                      </>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}

/** The latest derivation or teardown's state; once it succeeded, how many events the rule labels now. */
function MaterializationCell({ rule }: { rule: Rule }) {
  const m = rule.materialization;
  if (!m) return <span class="muted">—</span>;
  const removing = rule.state !== 'active';
  const label = m.state === 'queued' ? 'queued' : m.state === 'running' ? (removing ? 'removing…' : 'deriving…') : m.state;
  return (
    <span data-testid="materialization" data-state={m.state} data-derived-events={m.state === 'succeeded' ? rule.labeled_events : undefined}>
      <span class={`badge job-${m.state}`}>{label}</span> {m.state === 'succeeded' && <strong data-testid="derived-events">{formatNumber(rule.labeled_events)}</strong>}
      {m.state === 'succeeded' && m.finished_at && <span class="muted labeled-when">{formatDateTime(m.finished_at)}</span>}
      {m.state === 'failed' && <span class="problem"> {m.error ?? 'no reason given'}</span>}
    </span>
  );
}

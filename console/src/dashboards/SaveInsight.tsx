// "Save" on an insight page: the page's query body saved as an insight of its kind, and, when
// chosen, a tile of it added to an existing dashboard or to a new one; opened from a saved insight,
// its changes saved back to that insight. Analysts and above only.

import { useState } from 'preact/hooks';
import { Field, Select, Submit } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { addTile, createDashboard, createInsight, getInsight, listDashboards, updateInsight, type Insight } from './dashboardsApi';
import { Dialog, DialogActions } from './Dialog';
import { useDashboardRights } from './roles';
import './dashboards.css';

const NEW = 'new';

/** `dateRange` is the page's rolling range, saved with the query (null: the query's fixed dates). */
export function SaveInsight({ projectId, kind, query, dateRange, title, savedId }: { projectId: number; kind: string; query: unknown; dateRange: string | null; title: string; savedId?: number }) {
  const { canEdit } = useDashboardRights();
  const [open, setOpen] = useState(false);
  const [saved, setSaved] = useState<{ insight: Insight; dashboard?: { id: number; name: string }; changed?: boolean }>();
  // Opened from a saved insight of this kind: its changes can be saved back to it.
  const original = useAsync(async () => (savedId === undefined || !canEdit ? undefined : getInsight(projectId, savedId)), [projectId, savedId, canEdit]);
  const update = useAction();
  if (!canEdit) return null;
  const base = `/projects/${projectId}`;
  const from = original.data?.kind === kind ? original.data : undefined;
  const saveChanges = () =>
    update.run(async () => {
      setSaved({ insight: await updateInsight(projectId, from!.id, { query: query as Insight['query'], date_range: dateRange }), changed: true });
    });
  return (
    <>
      {from && (
        <button type="button" class="button small save-insight" disabled={update.busy} onClick={() => (setSaved(undefined), saveChanges())}>
          Save changes to “{from.name}”
        </button>
      )}
      <button type="button" class="button secondary small save-insight" onClick={() => (setSaved(undefined), setOpen(true))}>
        {from ? 'Save as new / Add to dashboard' : 'Save / Add to dashboard'}
      </button>
      <ErrorNote error={update.error} />
      {saved && (
        <p class="notice saved-note" role="status" data-testid="saved-note">
          {saved.changed ? 'Saved the changes to' : 'Saved as'} <a href={`${base}/insights/saved/${saved.insight.id}`}>{saved.insight.name}</a>
          {saved.dashboard && (
            <>
              {' '}
              and added to <a href={`${base}/dashboards/${saved.dashboard.id}`}>{saved.dashboard.name}</a>
            </>
          )}
          .
        </p>
      )}
      {open && <SaveDialog projectId={projectId} kind={kind} query={query} dateRange={dateRange} title={title} onSaved={setSaved} onClose={() => setOpen(false)} />}
    </>
  );
}

function SaveDialog({
  projectId,
  kind,
  query,
  dateRange,
  title,
  onSaved,
  onClose,
}: {
  projectId: number;
  kind: string;
  query: unknown;
  dateRange: string | null;
  title: string;
  onSaved(saved: { insight: Insight; dashboard?: { id: number; name: string } }): void;
  onClose(): void;
}) {
  const [name, setName] = useState(title);
  const [description, setDescription] = useState('');
  const [target, setTarget] = useState('');
  const [dashboardName, setDashboardName] = useState('');
  const dashboards = useAsync(() => listDashboards(projectId).then((r) => r.items), [projectId]);
  // What a failed attempt already created is not created again on the next one.
  const [created, setCreated] = useState<{ insight?: Insight; dashboard?: { id: number; name: string } }>({});
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    const insight = created.insight ?? (await createInsight(projectId, { name: name.trim(), ...(description.trim() ? { description: description.trim() } : {}), kind, query, date_range: dateRange }));
    setCreated({ insight });
    let dashboard: { id: number; name: string } | undefined;
    if (target === NEW) {
      dashboard = created.dashboard ?? (await createDashboard(projectId, { name: dashboardName.trim() }));
      setCreated({ insight, dashboard });
    } else if (target) dashboard = dashboards.data?.find((d) => String(d.id) === target);
    if (dashboard) await addTile(projectId, dashboard.id, { insight_id: insight.id });
    onSaved({ insight, dashboard });
    onClose();
  });
  return (
    <Dialog title="Save this insight" testId="save-insight-dialog" selectFirstField onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Name" value={name} onValue={setName} required />
        <div class="field">
          <label for="save-insight-description">Description (optional)</label>
          <textarea id="save-insight-description" rows={2} maxLength={2000} value={description} onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)} />
        </div>
        <Select label="Add to a dashboard" value={target} onValue={setTarget}>
          <option value="">no dashboard</option>
          {(dashboards.data ?? []).map((d) => (
            <option value={String(d.id)}>{d.name}</option>
          ))}
          <option value={NEW}>a new dashboard…</option>
        </Select>
        {target === NEW && <Field label="New dashboard name" value={dashboardName} onValue={setDashboardName} required />}
        <ErrorNote error={dashboards.error ?? error} />
        <DialogActions>
          <Submit busy={busy}>Save</Submit>
        </DialogActions>
      </form>
    </Dialog>
  );
}

// One dashboard: its tiles on the grid, each drawing its saved insight's answer with the dashboard's
// date range and filters laid over the insight's own. Analysts and above change the range and
// filters, the name, and add insight and text tiles; in "Edit layout" they move and resize tiles
// (drag or buttons), edit text and remove tiles. Admins and owners share it. Viewers read, and may
// look at the tiles over other dates.

import { useEffect, useRef, useState } from 'preact/hooks';
import { useRecord } from './useRecord';
import { useLocation, useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { todayIn } from '../ui/format';
import { datesOf, type Dates } from '../ui/dateRanges';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { ControlBar, DateRange, FilterEditor, filterText, filtersOf, usePropertyKeys, type FilterItem } from '../queries/controls/Controls';
import { OverridesNote } from './OverridesNote';
import {
  addTile,
  deleteDashboard,
  getDashboard,
  insightResult,
  listInsights,
  removeTile,
  tileResult,
  updateDashboard,
  updateTile,
  type Dashboard as DashboardShape,
  type DashboardPatch,
} from './dashboardsApi';

type Tile = DashboardShape['tiles'][number];
import { Dialog, DialogActions, ManageButtons, RenameDialog, type ManageDialog } from './Dialog';
import { ShareDialog } from './ShareDialog';
import { overridesKey, TileGrid, tileTitle } from './TileGrid';
import { useDashboardRights } from './roles';
import './dashboards.css';

export function Dashboard() {
  const { params } = useRoute();
  const projectId = Number(params.projectId);
  const dashboardId = Number(params.dashboardId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const { canEdit, canShare } = useDashboardRights();
  const { route } = useLocation();
  const { value: dashboard, error: loadError, set: setDashboard, reload: load } = useRecord(() => getDashboard(projectId, dashboardId), [projectId, dashboardId]);
  const [dialog, setDialog] = useState<ManageDialog>();
  // The arranging and removing controls clutter the tiles, so they show only while editing the layout.
  const [arranging, setArranging] = useState(false);
  // Another range to look at, not saved: every tile asks its insight's answer over it.
  const [look, setLook] = useState<Dates>();
  const action = useAction();

  /** A change the server answers with the whole dashboard. */
  const change = (work: () => Promise<DashboardShape | void>) =>
    action.run(async () => {
      const next = await work();
      if (next) setDashboard(next);
    });
  // Drawn at once; a refused layout is undone by reading the dashboard again.
  const layout = (tiles: Tile[]) => {
    if (dashboard) setDashboard({ ...dashboard, tiles });
    return change(() => updateDashboard(projectId, dashboardId, { layout: tiles.map((t) => ({ id: t.id, width: t.width, height: t.height })) }).catch((err) => (load(), Promise.reject(err))));
  };

  if (!project) return <Empty title="No such project in this organization" />;
  if (loadError) return <ErrorNote error={loadError} />;
  if (!dashboard) return <Loading label="Loading the dashboard…" />;
  const base = `/projects/${projectId}`;
  return (
    <section aria-labelledby="dashboard-title">
      <p class="dash-back">
        <a href={`${base}/dashboards`}>All dashboards</a>
      </p>
      <div class="page-header">
        <h1 id="dashboard-title">{dashboard.name}</h1>
        <span class="muted">
          {project.name} · days in {project.timezone}
        </span>
        <span class="spacer" />
        {canEdit && dashboard.tiles.length > 0 && (
          <button type="button" class={`button small ${arranging ? 'primary' : 'secondary'}`} onClick={() => setArranging(!arranging)}>
            {arranging ? 'Done' : 'Edit layout'}
          </button>
        )}
        <ManageButtons
          canEdit={canEdit}
          canShare={canShare}
          onOpen={(d) => (action.clear(), setDialog(d))}
          remove={{
            label: 'Delete the dashboard',
            title: `Delete the dashboard ${dashboard.name}?`,
            confirmLabel: 'Delete the dashboard',
            testId: 'delete-dashboard-dialog',
            onConfirm: async () => (await deleteDashboard(projectId, dashboardId), route(`${base}/dashboards`)),
            children: <p>Its tiles go with it and its share links stop working. The saved insights stay.</p>,
          }}
        />
      </div>
      {dashboard.description && <p class="result-meta">{dashboard.description}</p>}
      <Overrides
        projectId={projectId}
        timezone={project.timezone}
        dashboard={dashboard}
        canEdit={canEdit}
        onChange={(body) => change(() => updateDashboard(projectId, dashboardId, body))}
        look={look}
        onLook={setLook}
      />
      <ErrorNote error={action.error} />
      {dashboard.tiles.length === 0 ? (
        <Empty title="This dashboard has no tiles yet">
          {canEdit ? 'Add a saved insight or a text below, or save one from any insight page with “Save / Add to dashboard”.' : 'Analysts, admins and owners add tiles.'}
        </Empty>
      ) : (
        <>
          {arranging && (
            <p class="result-meta" data-testid="layout-help">
              Drag a tile by its handle (⋮⋮) onto another to move it, or its lower right corner to resize it; the buttons below each tile do the same. Every change is saved at once.
            </p>
          )}
          <TileGrid
            tiles={dashboard.tiles}
            revision={look ? `${overridesKey(dashboard)}|look ${look.range ?? `${look.from} ${look.to}`}` : overridesKey(dashboard)}
            loadResult={(tile) =>
              look && tile.insight
                ? insightResult(projectId, tile.insight.id, {
                    ...(look.range ? { date_range: look.range } : { date_from: look.from, date_to: look.to }),
                    ...(dashboard.filters ? { filters: dashboard.filters } : {}),
                  })
                : tileResult(projectId, dashboardId, tile.id)
            }
            onLayout={canEdit && arranging ? (tiles) => void layout(tiles) : undefined}
            titleHref={(tile) => (tile.insight ? `${base}/insights/saved/${tile.insight.id}` : undefined)}
            tools={canEdit && arranging ? (tile) => <TileTools projectId={projectId} dashboardId={dashboardId} tile={tile} onChanged={() => load()} run={(work) => change(work)} /> : undefined}
          />
        </>
      )}
      {canEdit && <AddTiles projectId={projectId} dashboardId={dashboardId} onAdded={() => load()} />}
      {dialog === 'share' && <ShareDialog projectId={projectId} target={{ kind: 'dashboard', id: dashboard.id, name: dashboard.name }} onClose={() => setDialog(undefined)} />}
      {dialog === 'rename' && (
        <RenameDialog title="Rename the dashboard" named={dashboard} onSave={(body) => updateDashboard(projectId, dashboardId, body).then(setDashboard)} onClose={() => setDialog(undefined)} />
      )}
    </section>
  );
}

/**
 * The dashboard-wide range and filters: set by analysts and above, shown to everyone. Viewers can
 * look at the tiles over another range, which is not saved.
 */
function Overrides({
  projectId,
  timezone,
  dashboard,
  canEdit,
  onChange,
  look,
  onLook,
}: {
  projectId: number;
  timezone: string;
  dashboard: DashboardShape;
  canEdit: boolean;
  onChange(body: DashboardPatch): void;
  look?: Dates;
  onLook(range: Dates | undefined): void;
}) {
  const keys = usePropertyKeys(projectId);
  const today = todayIn(timezone);
  const filters = ((dashboard.filters ?? []) as FilterItem[]).map(filterText);
  const saved = datesOf(dashboard.date_range, { from: dashboard.date_from ?? '', to: dashboard.date_to ?? '' }, today);
  // Fixed dates are saved once both ends are chosen; until then the typed end waits here. While a
  // pick is on its way, the answers to earlier ones (a list gone through with the keyboard saves
  // each option it passes) do not move the control back.
  const [draft, setDraft] = useState<Dates>(saved);
  const pending = useRef<string | undefined>(undefined);
  const keyOf = (d: Dates) => d.range ?? `${d.from}..${d.to}`;
  useEffect(() => {
    if (pending.current !== undefined && pending.current !== keyOf(saved)) return;
    pending.current = undefined;
    setDraft(saved);
  }, [dashboard.date_from, dashboard.date_to, dashboard.date_range, today]);
  const pickRange = (d: Dates) => {
    setDraft(d);
    if (d.range || (d.from && d.to && d.from <= d.to)) pending.current = keyOf(d);
    if (d.range) onChange({ date_range: d.range });
    else if (d.from && d.to && d.from <= d.to) onChange({ date_from: d.from, date_to: d.to });
  };
  if (!canEdit) {
    return (
      <>
        <OverridesNote dashboard={dashboard} timezone={timezone} />
        <ControlBar>
          <div class="control" data-testid="dash-look">
            <span class="control-label">Look at other dates (not saved)</span>
          </div>
          <DateRange value={look ?? { from: '', to: '' }} today={today} onChange={(d) => (d.range || (d.from && d.to && d.from <= d.to)) && onLook(d)} />
          {look && (
            <button type="button" class="button secondary small" onClick={() => onLook(undefined)}>
              Back to the dashboard's dates
            </button>
          )}
        </ControlBar>
      </>
    );
  }
  return (
    <ControlBar>
      <DateRange value={draft} today={today} onChange={pickRange} />
      <div class="control">
        <span class="control-label">Every tile</span>
        {dashboard.date_from || dashboard.date_range ? (
          <button type="button" class="button secondary small" onClick={() => onChange({ date_from: null, date_to: null, date_range: null })}>
            Use each tile's own dates
          </button>
        ) : (
          <span class="muted" data-testid="own-dates">
            over its own dates
          </span>
        )}
      </div>
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => onChange({ filters: f.length ? filtersOf(f) : null })} />
    </ControlBar>
  );
}

function TileTools({ projectId, dashboardId, tile, onChanged, run }: { projectId: number; dashboardId: number; tile: Tile; onChanged(): void; run(work: () => Promise<void>): void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(tile.text ?? '');
  const title = tileTitle(tile);
  return (
    <>
      {tile.kind === 'text' && (
        <button type="button" class="button secondary" onClick={() => (setText(tile.text ?? ''), setEditing(true))}>
          Edit text
        </button>
      )}
      <button type="button" class="button danger" aria-label={`Remove ${title}`} onClick={() => run(async () => (await removeTile(projectId, dashboardId, tile.id), onChanged()))}>
        Remove
      </button>
      {editing && (
        <Dialog title="Edit the text" onClose={() => setEditing(false)}>
          <form
            class="dash-text-edit"
            onSubmit={(e) => {
              e.preventDefault();
              run(async () => (await updateTile(projectId, dashboardId, tile.id, { text }), setEditing(false), onChanged()));
            }}
          >
            <label for={`tile-${tile.id}-text`}>Text</label>
            <textarea id={`tile-${tile.id}-text`} rows={6} maxLength={4000} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
            <DialogActions>
              <button type="submit" class="button primary" disabled={!text.trim()}>
                Save the text
              </button>
            </DialogActions>
          </form>
        </Dialog>
      )}
    </>
  );
}

/** Adding a tile: one of the project's saved insights, or a text. */
function AddTiles({ projectId, dashboardId, onAdded }: { projectId: number; dashboardId: number; onAdded(): void }) {
  const insights = useAsync(() => listInsights(projectId).then((r) => r.items), [projectId]);
  const [insightId, setInsightId] = useState('');
  const [text, setText] = useState('');
  const { busy, error, run } = useAction();
  const add = (body: { insight_id: number } | { text: string }) =>
    run(async () => {
      await addTile(projectId, dashboardId, body);
      setInsightId('');
      setText('');
      onAdded();
    });
  return (
    <>
      <h2>Add a tile</h2>
      <ErrorNote error={error ?? insights.error} />
      <div class="dash-add">
        <form class="card" onSubmit={(e) => (e.preventDefault(), insightId && void add({ insight_id: Number(insightId) }))}>
          <div class="field">
            <label for="add-insight">Saved insight</label>
            <select id="add-insight" value={insightId} onChange={(e) => setInsightId((e.currentTarget as HTMLSelectElement).value)}>
              <option value="">choose an insight</option>
              {(insights.data ?? []).map((i) => (
                <option value={String(i.id)}>{i.name}</option>
              ))}
            </select>
          </div>
          <button type="submit" class="button secondary" disabled={busy || !insightId}>
            Add the insight
          </button>
        </form>
        <form class="card dash-text-edit" onSubmit={(e) => (e.preventDefault(), text.trim() && void add({ text: text.trim() }))}>
          <label for="add-text">Text</label>
          <textarea id="add-text" rows={3} maxLength={4000} value={text} onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)} />
          <button type="submit" class="button secondary" disabled={busy || !text.trim()}>
            Add the text
          </button>
        </form>
      </div>
    </>
  );
}

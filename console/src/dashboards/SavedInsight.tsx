// One saved insight: its answer drawn by its insight page's own view (and offered as CSV), over its saved dates (a
// rolling range by its name and today's dates) or a range chosen here for a look (not saved), the dashboards showing it, and the link that opens it
// on its insight page. Analysts and above rename it, add it to a dashboard and delete it; admins
// and owners share it.

import { useState } from 'preact/hooks';
import { useRecord } from './useRecord';
import { useLocation, useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { formatDateTime, todayIn } from '../ui/format';
import { datesOf, type Dates } from '../ui/dateRanges';
import { AnswerError, Empty, ErrorNote, Loading } from '../ui/states';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import { ControlBar, DateRange } from '../queries/controls/Controls';
import { AnswerView, insightPageUrl, kindLabel } from '../queries/registry';
import { DownloadCsv } from '../queries/answerCsv';
import { addTile, deleteInsight, getInsight, insightResult, listDashboards, updateInsight, type Insight } from './dashboardsApi';
import { ManageButtons, RenameDialog, type ManageDialog } from './Dialog';
import { ShareDialog } from './ShareDialog';
import { rollingSentence } from './OverridesNote';
import { useDashboardRights } from './roles';
import './dashboards.css';

export function SavedInsight() {
  const { params } = useRoute();
  const projectId = Number(params.projectId);
  const insightId = Number(params.insightId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const { canEdit, canShare } = useDashboardRights();
  const { route } = useLocation();
  const { value: insight, error: loadError, set: setInsight, reload: load } = useRecord(() => getInsight(projectId, insightId), [projectId, insightId]);
  const [range, setRange] = useState<Dates>();
  const [dialog, setDialog] = useState<ManageDialog>();
  const answer = useAsync(
    () => (insight ? insightResult(projectId, insightId, !range ? {} : range.range ? { date_range: range.range } : { date_from: range.from, date_to: range.to }) : Promise.resolve(undefined)),
    [projectId, insightId, insight?.updated_at, range?.from, range?.to, range?.range],
  );

  if (!project) return <Empty title="No such project in this organization" />;
  if (loadError) return <ErrorNote error={loadError} />;
  if (!insight) return <Loading label="Loading the insight…" />;
  const base = `/projects/${projectId}`;
  const pageUrl = insightPageUrl(projectId, insight.kind, insight.query, insight.id, insight.date_range);
  const query = insight.query as { date_from?: string; date_to?: string };
  const today = todayIn(project.timezone);
  const saved = datesOf(insight.date_range, { from: query.date_from ?? query.date_to ?? '', to: query.date_to ?? '' }, today);
  const rolling = rollingSentence(insight.date_range, project.timezone);
  return (
    <section aria-labelledby="insight-title">
      <p class="dash-back">
        <a href={`${base}/insights/saved`}>All saved insights</a>
      </p>
      <div class="page-header">
        <h1 id="insight-title">{insight.name}</h1>
        <span class="badge">{kindLabel(insight.kind)}</span>
        <span class="muted">
          {project.name} · days in {project.timezone}
        </span>
        <span class="spacer" />
        {pageUrl && (
          <a class="button secondary small dash-link-button" href={pageUrl}>
            Open in {kindLabel(insight.kind)}
          </a>
        )}
        <ManageButtons
          canEdit={canEdit}
          canShare={canShare}
          onOpen={setDialog}
          remove={{
            label: 'Delete',
            title: `Delete the insight ${insight.name}?`,
            confirmLabel: 'Delete the insight',
            testId: 'delete-insight-dialog',
            onConfirm: async () => (await deleteInsight(projectId, insight.id), route(`${base}/insights/saved`)),
            children: <p>{insight.dashboards.length > 0 ? 'Its tiles leave every dashboard showing it, and its' : 'Its'} share links stop working.</p>,
          }}
        />
      </div>
      {insight.description && <p class="result-meta">{insight.description}</p>}
      <p class="result-meta">
        Saved by {insight.created_by?.name ?? insight.created_by?.email ?? 'a former member'} · changed {formatDateTime(insight.updated_at)}
        {insight.dashboards.length > 0 && (
          <>
            {' '}
            · on{' '}
            {insight.dashboards.map((d, n) => (
              <>
                {n > 0 && ', '}
                <a href={`${base}/dashboards/${d.id}`}>{d.name}</a>
              </>
            ))}
          </>
        )}
      </p>
      {rolling && (
        <p class="result-meta" data-testid="insight-range">
          {rolling}
        </p>
      )}
      {query.date_from !== undefined || query.date_to !== undefined ? (
        <ControlBar>
          <DateRange value={range ?? saved} today={today} onChange={(d) => (d.range || (d.from && d.to && d.from <= d.to)) && setRange(d)} />
          {range && (
            <button type="button" class="button secondary small" onClick={() => setRange(undefined)}>
              Back to the saved dates
            </button>
          )}
        </ControlBar>
      ) : null}
      {canEdit && <AddToDashboard projectId={projectId} insight={insight} onAdded={() => load()} />}
      <AnswerError error={answer.error} />
      {answer.loading || answer.data === undefined ? (
        !answer.error && <Loading label="Running the query…" />
      ) : (
        <div data-testid="insight-answer">
          <div class="answer-actions">
            <DownloadCsv data={answer.data} name={insight.name} />
          </div>
          <AnswerView kind={insight.kind} query={insight.query} data={answer.data} />
        </div>
      )}
      {dialog === 'share' && <ShareDialog projectId={projectId} target={{ kind: 'insight', id: insight.id, name: insight.name }} onClose={() => setDialog(undefined)} />}
      {dialog === 'rename' && (
        <RenameDialog title="Rename the insight" named={insight} onSave={(body) => updateInsight(projectId, insight.id, body).then(setInsight)} onClose={() => setDialog(undefined)} />
      )}
    </section>
  );
}

function AddToDashboard({ projectId, insight, onAdded }: { projectId: number; insight: Insight; onAdded(): void }) {
  const dashboards = useAsync(() => listDashboards(projectId).then((r) => r.items), [projectId]);
  const [target, setTarget] = useState('');
  const { busy, error, run } = useAction();
  const add = () =>
    run(async () => {
      await addTile(projectId, Number(target), { insight_id: insight.id });
      setTarget('');
      onAdded();
    });
  const choices = (dashboards.data ?? []).filter((d) => !insight.dashboards.some((x) => x.id === d.id));
  if (choices.length === 0) return <ErrorNote error={dashboards.error} />;
  return (
    <div class="filter-row dash-links">
      <label for="add-to-dashboard">Add to a dashboard</label>
      <select id="add-to-dashboard" value={target} onChange={(e) => setTarget((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">choose a dashboard</option>
        {choices.map((d) => (
          <option value={String(d.id)}>{d.name}</option>
        ))}
      </select>
      <button type="button" class="button secondary small" disabled={busy || !target} onClick={() => void add()}>
        Add
      </button>
      <ErrorNote error={error ?? dashboards.error} />
    </div>
  );
}

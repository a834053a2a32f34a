// `/shared/:token`, what a share link opens: no sign-in and no navigation, only the shared
// dashboard's range, filters and tiles (or the one insight) with their figures, asked through the
// link's token, each answer downloadable as CSV. An unknown, expired or revoked link says so.

import { useRoute } from 'preact-iso';
import { ApiError } from '../api/client';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { useAsync } from '../ui/useAsync';
import { AnswerView, kindLabel } from '../queries/registry';
import { DownloadCsv } from '../queries/answerCsv';
import { getShared, sharedResult, sharedTileResult } from './dashboardsApi';
import { OverridesNote, rollingSentence } from './OverridesNote';
import { overridesKey, TileGrid } from './TileGrid';
import './dashboards.css';

export function SharedView() {
  const token = useRoute().params.token ?? '';
  const shared = useAsync(() => getShared(token), [token]);
  const gone = shared.error instanceof ApiError && shared.error.status === 404;
  return (
    <main id="main" class="shared-page" data-testid="shared-view">
      {gone ? (
        <Empty title="This link has expired or was revoked">Ask whoever sent it for a new one.</Empty>
      ) : shared.error ? (
        <ErrorNote error={shared.error} />
      ) : !shared.data ? (
        <Loading />
      ) : shared.data.dashboard ? (
        <>
          <div class="page-header">
            <h1>{shared.data.dashboard.name}</h1>
            <span class="muted">
              {shared.data.project.name} · days in {shared.data.project.timezone}
            </span>
          </div>
          {shared.data.dashboard.description && <p class="result-meta">{shared.data.dashboard.description}</p>}
          <OverridesNote dashboard={shared.data.dashboard} timezone={shared.data.project.timezone} />
          <TileGrid tiles={shared.data.dashboard.tiles} revision={overridesKey(shared.data.dashboard)} loadResult={(tile) => sharedTileResult(token, tile.id)} />
        </>
      ) : (
        shared.data.insight && <SharedInsight token={token} insight={shared.data.insight} project={shared.data.project} />
      )}
    </main>
  );
}

function SharedInsight({
  token,
  insight,
  project,
}: {
  token: string;
  insight: { name: string; description: string | null; kind: string; query: Record<string, unknown>; date_range?: string | null };
  project: { name: string; timezone: string };
}) {
  const rolling = rollingSentence(insight.date_range, project.timezone);
  const answer = useAsync(() => sharedResult(token), [token]);
  return (
    <>
      <div class="page-header">
        <h1>{insight.name}</h1>
        <span class="badge">{kindLabel(insight.kind)}</span>
        <span class="muted">
          {project.name} · days in {project.timezone}
        </span>
      </div>
      {insight.description && <p class="result-meta">{insight.description}</p>}
      {rolling && (
        <p class="result-meta" data-testid="insight-range">
          {rolling}
        </p>
      )}
      <ErrorNote error={answer.error} />
      {answer.data === undefined ? (
        !answer.error && <Loading label="Running the query…" />
      ) : (
        <div data-testid="insight-answer">
          <div class="answer-actions">
            <DownloadCsv data={answer.data} name={insight.name} />
          </div>
          <AnswerView kind={insight.kind} query={insight.query} data={answer.data} />
        </div>
      )}
    </>
  );
}

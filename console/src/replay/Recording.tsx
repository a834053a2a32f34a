// One recording: who, when and how long, a link to the person's events and their other
// recordings, and the player.

import { useRoute } from 'preact-iso';
import { api, ok } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { ErrorNote, Loading } from '../ui/states';
import { formatDateTime, formatDuration, formatNumber } from '../ui/format';
import { Gated } from '../ui/Gated';
import { Player } from './Player';
import { recordingsHref } from './WatchLink';
import './replay.css';

export function Recording() {
  return (
    <Gated feature="actor_drilldown">
      <RecordingPage />
    </Gated>
  );
}

function RecordingPage() {
  const { projectId: id, sessionId } = useRoute().params;
  const projectId = Number(id);
  const recording = useAsync(() => ok(api.GET('/api/v1/projects/{id}/recordings/{session_id}', { params: { path: { id: projectId, session_id: sessionId! } } })), [projectId, sessionId]);
  const r = recording.data;
  return (
    <section aria-labelledby="recording-title">
      <div class="page-header">
        <h1 id="recording-title">Recording</h1>
        <a href={recordingsHref(projectId, {})}>All recordings</a>
      </div>
      <ErrorNote error={recording.error} />
      {!r && recording.loading && <Loading />}
      {r && (
        <>
          <dl class="recording-facts">
            <div>
              <dt>Person</dt>
              <dd>
                <a href={`/projects/${projectId}/events?actor_id=${encodeURIComponent(r.person)}`} data-testid="person-link">
                  {r.person}
                </a>{' '}
                (<a href={recordingsHref(projectId, { person: r.person })}>their recordings</a>)
              </dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{formatDateTime(r.started_at)}</dd>
            </div>
            <div>
              <dt>Duration</dt>
              <dd>{formatDuration(r.duration_ms / 1000)}</dd>
            </div>
            <div>
              <dt>Pages</dt>
              <dd data-testid="recording-pages">{formatNumber(r.page_views)}</dd>
            </div>
            <div>
              <dt>Clicks</dt>
              <dd data-testid="recording-clicks">{formatNumber(r.clicks)}</dd>
            </div>
            <div>
              <dt>Rage / dead clicks</dt>
              <dd data-testid="recording-rage-dead">
                {formatNumber(r.rage_clicks)} / {formatNumber(r.dead_clicks)}
              </dd>
            </div>
          </dl>
          <Player key={r.session_id} projectId={projectId} recording={r} />
        </>
      )}
    </section>
  );
}

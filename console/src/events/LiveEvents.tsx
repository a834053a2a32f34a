// Events as they are stored, newest first: the project's live stream (sampled by the server at 20
// messages a second; what it leaves out is counted and shown), pausable, each event's full JSON a
// click away.

import { useEffect, useRef, useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { apiFetch, toApiError } from '../api/client';
import { ErrorNote } from '../ui/states';
import { readEventStream } from './sse';
import { EventsTable, type StoredEvent } from './EventRow';

const KEEP = 200;

type Status = 'connecting' | 'live' | 'ended';

export function LiveEvents() {
  const projectId = Number(useRoute().params.projectId);
  const [events, setEvents] = useState<StoredEvent[]>([]);
  const [dropped, setDropped] = useState(0);
  const [paused, setPaused] = useState(false);
  const [waiting, setWaiting] = useState<StoredEvent[]>([]);
  const [status, setStatus] = useState<Status>('connecting');
  const [error, setError] = useState<Error>();
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    setStatus('connecting');
    setError(undefined);
    (async () => {
      const response = await apiFetch(`/api/v1/projects/${projectId}/events/stream`, { signal: abort.signal, headers: { Accept: 'text/event-stream' } });
      if (!response.ok || !response.body) throw toApiError(response.status, await response.json().catch(() => undefined));
      await readEventStream(
        response.body,
        (name, data) => {
          if (name === 'dropped') setDropped((n) => n + (JSON.parse(data) as { count: number }).count);
          if (name !== 'event') return;
          const event = JSON.parse(data) as StoredEvent;
          if (pausedRef.current) setWaiting((w) => [event, ...w].slice(0, KEEP));
          else setEvents((list) => [event, ...list].slice(0, KEEP));
        },
        (comment) => comment === 'connected' && setStatus('live'),
      );
      setStatus('ended');
    })().catch((err: Error) => {
      if (abort.signal.aborted) return;
      setStatus('ended');
      setError(err);
    });
    return () => abort.abort();
  }, [projectId, attempt]);

  const resume = () => {
    setEvents((list) => [...waiting, ...list].slice(0, KEEP));
    setWaiting([]);
    setPaused(false);
  };

  return (
    <section aria-labelledby="live-title">
      <div class="page-header">
        <h1 id="live-title">Live events</h1>
        <span class={`badge ${status}`} role="status" data-testid="stream-status">
          {status === 'live' ? (paused ? 'Paused' : 'Live') : status === 'connecting' ? 'Connecting…' : 'Disconnected'}
        </span>
        <div class="spacer" />
        {status === 'ended' && (
          <button type="button" class="button secondary" onClick={() => setAttempt((n) => n + 1)}>
            Reconnect
          </button>
        )}
        {paused ? (
          <button type="button" class="button primary" onClick={resume}>
            Resume{waiting.length > 0 ? ` (${waiting.length} new)` : ''}
          </button>
        ) : (
          <button type="button" class="button secondary" onClick={() => setPaused(true)}>
            Pause
          </button>
        )}
      </div>
      <p class="muted">
        Events appear as they are stored. The server sends at most 20 a second to a viewer; those it leaves out are counted here: <strong data-testid="dropped-count">{dropped}</strong> not shown.
      </p>
      <ErrorNote error={error} />
      {events.length === 0 ? (
        <div class="state empty">
          <strong>Waiting for events…</strong>
          <div>Anything sent to this project from now on shows up here.</div>
        </div>
      ) : (
        <EventsTable events={events} time="event_time" />
      )}
    </section>
  );
}

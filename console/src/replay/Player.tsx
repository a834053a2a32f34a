// The session player: the recorded page in the player frame (frame.ts), its controls (play and
// pause, speed, skipping inactivity), a timeline marked with the session's page views, clicks,
// rage and dead clicks and custom events, and the event list beside it; choosing a mark or an
// event seeks there. Events stream in while it plays.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Schemas } from '../api/client';
import { ErrorNote } from '../ui/states';
import { fromOwn, type FromFrame, type ToFrame } from './frameMessages';
import { readRecording } from './recordingStream';
import { clock, KIND_NAMES, marksOf, type Mark, type MarkKind } from './marks';

const SPEEDS = [1, 2, 4, 8];

interface Playback {
  at: number;
  playing: boolean;
  skipping: boolean;
  finished: boolean;
}

export function Player({ projectId, recording }: { projectId: number; recording: Schemas['RecordingDetail'] }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [playback, setPlayback] = useState<Playback>({ at: 0, playing: false, skipping: false, finished: false });
  const [speed, setSpeed] = useState(1);
  const [skip, setSkip] = useState(true);
  const [error, setError] = useState<Error>();
  const [loaded, setLoaded] = useState(false);
  const marks = useMemo(() => marksOf(recording), [recording]);
  const total = recording.duration_ms;

  const send = (message: ToFrame) => frame.current?.contentWindow?.postMessage(message, location.origin);

  useEffect(() => {
    const abort = new AbortController();
    // Events wait for the frame's script; the frame starts playing on the first full snapshot.
    let ready = false;
    const queued: unknown[][] = [];
    const onMessage = (event: MessageEvent) => {
      if (!fromOwn(event, frame.current?.contentWindow ?? null)) return;
      const message = event.data as FromFrame;
      if (message.type === 'ready') {
        ready = true;
        for (const events of queued.splice(0)) send({ type: 'events', events });
      } else if (message.type === 'time') {
        setPlayback((p) => ({ ...p, at: message.at, playing: message.playing, skipping: message.skipping }));
      } else if (message.type === 'started') {
        // What the console bench measures: from opening the page to the recording playing.
        if (performance.getEntriesByName('pp:replay-started').length === 0) performance.mark('pp:replay-started');
        setPlayback((p) => ({ ...p, playing: true, finished: false }));
      } else if (message.type === 'finished') {
        setPlayback((p) => ({ ...p, playing: false, finished: true }));
      }
    };
    addEventListener('message', onMessage);
    readRecording(
      projectId,
      recording.session_id,
      (events) => {
        if (events.length === 0) return;
        if (ready) send({ type: 'events', events });
        else queued.push(events);
      },
      abort.signal,
    ).then(
      () => setLoaded(true),
      (err: Error) => abort.signal.aborted || setError(err),
    );
    return () => {
      abort.abort();
      removeEventListener('message', onMessage);
    };
  }, [projectId, recording.session_id]);

  const toggle = () => {
    if (playback.playing) send({ type: 'pause' });
    else send(playback.finished ? { type: 'seek', at: 0, play: true } : { type: 'play' });
    setPlayback((p) => ({ ...p, playing: !p.playing, finished: false }));
  };
  const seek = (at: number) => {
    send({ type: 'seek', at, play: playback.playing });
    setPlayback((p) => ({ ...p, at, finished: false }));
  };
  const current = marks.findLast((m) => m.at <= playback.at);
  // The position moves ten times a second; the marks and the event list (up to 5,000 rows) are
  // drawn again only when they change. The same vnode tells Preact to skip the subtree.
  const markStrip = useMemo(() => <TimelineMarks marks={marks} total={total} onSeek={seek} />, [marks, total, playback.playing]);
  const eventList = useMemo(() => <EventList marks={marks} current={current} onSeek={seek} truncated={recording.events_truncated} />, [marks, current?.uuid, playback.playing]);

  return (
    <div class="player" data-testid="player">
      <div class="player-main">
        <iframe ref={frame} class="player-frame" src="/replay-frame.html" title="Recorded page" referrerpolicy="no-referrer" />
        <div class="player-controls" role="group" aria-label="Playback">
          <button type="button" class="button primary" onClick={toggle} aria-label={playback.playing ? 'Pause' : 'Play'}>
            {playback.playing ? 'Pause' : 'Play'}
          </button>
          <span class="player-time" data-testid="player-time">
            {clock(playback.at)} / {clock(total)}
          </span>
          <label class="control-label" for="player-speed">
            Speed
          </label>
          <select
            id="player-speed"
            value={String(speed)}
            onChange={(e) => {
              const next = Number((e.currentTarget as HTMLSelectElement).value);
              setSpeed(next);
              send({ type: 'speed', speed: next });
            }}
          >
            {SPEEDS.map((s) => (
              <option value={String(s)}>{s}×</option>
            ))}
          </select>
          <label class="check">
            <input
              type="checkbox"
              checked={skip}
              onChange={(e) => {
                const next = (e.currentTarget as HTMLInputElement).checked;
                setSkip(next);
                send({ type: 'skip', skip: next });
              }}
            />
            Skip inactivity
          </label>
          {playback.skipping && <span class="muted">Skipping inactivity…</span>}
          {!loaded && !error && <span class="muted">Loading the recording…</span>}
        </div>
        <div class="player-timeline">
          {markStrip}
          <Position total={total} at={playback.at} onSeek={seek} />
          <Legend marks={marks} />
        </div>
        <ErrorNote error={error} />
      </div>
      {eventList}
    </div>
  );
}

function TimelineMarks({ marks, total, onSeek }: { marks: Mark[]; total: number; onSeek(at: number): void }) {
  const pct = (ms: number) => `${total > 0 ? (ms / total) * 100 : 0}%`;
  return (
    <div class="timeline-marks" aria-hidden="true">
      {marks.map((m) => (
        <span class={`timeline-mark mark-${m.kind}`} style={{ left: pct(m.at) }} title={`${clock(m.at)} ${m.label} ${m.detail}`} data-kind={m.kind} onClick={() => onSeek(m.at)} />
      ))}
    </div>
  );
}

function Position({ total, at, onSeek }: { total: number; at: number; onSeek(at: number): void }) {
  return (
    <input
      type="range"
      class="timeline-range"
      aria-label="Position"
      min={0}
      max={Math.max(total, 1)}
      step={100}
      value={Math.min(at, total)}
      aria-valuetext={`${clock(at)} of ${clock(total)}`}
      onChange={(e) => onSeek(Number((e.currentTarget as HTMLInputElement).value))}
    />
  );
}

function Legend({ marks }: { marks: Mark[] }) {
  const kinds = (['page', 'click', 'rage', 'dead', 'custom'] as MarkKind[]).filter((k) => marks.some((m) => m.kind === k));
  return (
    <ul class="timeline-legend">
      {kinds.map((k) => (
        <li>
          <span class={`timeline-mark mark-${k}`} aria-hidden="true" /> {KIND_NAMES[k]}s: {marks.filter((m) => m.kind === k).length}
        </li>
      ))}
    </ul>
  );
}

function EventList({ marks, current, onSeek, truncated }: { marks: Mark[]; current?: Mark; onSeek(at: number): void; truncated: boolean }) {
  return (
    <aside class="player-events" aria-label="Events of the session">
      <h2>Events</h2>
      {marks.length === 0 && <p class="muted">The tracker sent no events in this session.</p>}
      <ol>
        {marks.map((m) => (
          <li class={`mark-${m.kind}`} data-uuid={m.uuid}>
            <button type="button" class="link" aria-current={current?.uuid === m.uuid ? 'true' : undefined} onClick={() => onSeek(m.at)}>
              <span class="player-event-time">{clock(m.at)}</span> <span class="player-event-name">{m.label}</span> <span class="muted truncate">{m.detail}</span>
            </button>
          </li>
        ))}
      </ol>
      {truncated && <p class="muted">Only the session's first events are listed.</p>}
    </aside>
  );
}

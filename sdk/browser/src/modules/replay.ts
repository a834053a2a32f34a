// Replay module: records the page with rrweb (every input masked, all text masked in
// strict mode, excluded subtrees blocked) and posts the events to /v1/replay in chunks
// under 60 KB. An event too large for one chunk travels as fragments.
import { record } from '@rrweb/record';
import type { ModuleContext } from '../shared/types.js';
import { sessionSampled } from '../shared/sample.js';
import { register } from './register.js';

// Bodies stay below 60 KB so a chunk can leave with sendBeacon or keepalive on page hide.
const CHUNK_BYTES = 56 * 1024;
const FRAGMENT_CHARS = 16 * 1024;
// credential, tracker, ids and seq around the events.
const ENVELOPE_BYTES = 300;
const FLUSH_MS = 5000;
// rrweb's custom-event type; fragments are custom events so chunks stay lists of rrweb events.
const CUSTOM_EVENT = 5;

const encoder = new TextEncoder();
const bytes = (s: string): number => encoder.encode(s).length;

function nextSeq(sessionId: string): number {
  // Shared by the pages of a session so that their chunks never reuse a number.
  const name = `pp_replay_seq_${sessionId}`;
  try {
    const n = Number(localStorage.getItem(name) || '0');
    localStorage.setItem(name, String(n + 1));
    return n;
  } catch {
    return Date.now();
  }
}

// Reassembled by concatenating `data` of one `id` in `index` order and parsing the result.
function fragments(serialized: string, timestamp: number): object[] {
  const id = `${timestamp}-${Math.random().toString(36).slice(2)}`;
  const count = Math.ceil(serialized.length / FRAGMENT_CHARS);
  const out: object[] = [];
  for (let i = 0; i < count; i++) {
    const data = serialized.slice(i * FRAGMENT_CHARS, (i + 1) * FRAGMENT_CHARS);
    out.push({ type: CUSTOM_EVENT, timestamp, data: { tag: 'pp.fragment', payload: { id, index: i, count, data } } });
  }
  return out;
}

function start(ctx: ModuleContext): void {
  const strict = ctx.config.privacy_mode === 'strict';
  let session = ctx.sessionId();
  let pending: object[] = [];
  let size = 0;
  let stop: (() => void) | undefined;

  const post = (events: object[]): void => {
    if (!events.length) return;
    const body = {
      credential: ctx.key,
      tracker: ctx.tracker,
      session_id: session,
      anonymous_id: ctx.anonymousId(),
      seq: nextSeq(session),
      events,
    };
    ctx.send('/v1/replay', body, false);
  };

  const flush = (): void => {
    const events = pending;
    pending = [];
    size = 0;
    post(events);
  };

  const add = (event: object, timestamp: number): void => {
    const serialized = JSON.stringify(event);
    const n = bytes(serialized) + 1;
    if (n + ENVELOPE_BYTES > CHUNK_BYTES) {
      flush();
      for (const f of fragments(serialized, timestamp)) add(f, timestamp);
      return;
    }
    if (size + n + ENVELOPE_BYTES > CHUNK_BYTES) flush();
    pending.push(event);
    size += n;
  };

  stop = record({
    emit(event: { timestamp: number }) {
      // A new session (30 minutes idle) gets its own chunks and sampling decision.
      const now = ctx.sessionId();
      if (now !== session) {
        flush();
        session = now;
        if (!sessionSampled(session, ctx.config.replay_sample_rate)) {
          stop?.();
          stop = undefined;
          return;
        }
        // The new session's replay must begin with a full snapshot of its own.
        setTimeout(() => record.takeFullSnapshot(true), 0);
      }
      add(event, event.timestamp);
    },
    maskAllInputs: true,
    maskTextSelector: strict ? '*' : undefined,
    blockSelector: '[data-pp-no-capture]',
    recordCanvas: false,
    collectFonts: false,
    inlineImages: false,
    sampling: { mousemove: 50, scroll: 150, input: 'last' },
  } as Parameters<typeof record>[0]);
  setInterval(flush, FLUSH_MS);
  ctx.onHide(flush);
}

register('replay', start);

// The player frame: rrweb's replayer rebuilding a recording inside its own iframe, which rrweb
// sandboxes (allow-same-origin only: no script of the recording runs) under this document's CSP
// (scripts only from the console's own files; see server/http/consoleSite.ts). The console page
// drives it by messages (frameMessages.ts); it reports where playback is.

import { Replayer } from 'rrweb';
import 'rrweb/dist/style.css';
import './frame.css';
import { fromOwn, type FromFrame, type ToFrame } from './frameMessages';

const FULL_SNAPSHOT = 2;
const TICK_MS = 100;

let replayer: Replayer | undefined;
let waiting: unknown[] = [];
let speed = 1;
let skip = true;
let playing = false;
let skipping = false;
let wantPlay = true;
let startAt = 0;

const tell = (message: FromFrame) => parent.postMessage(message, location.origin);

function create(events: unknown[]): void {
  replayer = new Replayer(events as ConstructorParameters<typeof Replayer>[0], {
    root: document.getElementById('player')!,
    speed,
    skipInactive: skip,
    showWarning: false,
    mouseTail: false,
    triggerFocus: false,
    UNSAFE_replayCanvas: false,
  });
  replayer.on('finish', () => {
    playing = false;
    tell({ type: 'finished' });
  });
  replayer.on('skip-start', () => (skipping = true));
  replayer.on('skip-end', () => (skipping = false));
  fit();
  if (wantPlay) play(startAt);
}

function play(at?: number): void {
  if (!replayer) {
    wantPlay = true;
    if (at !== undefined) startAt = at;
    return;
  }
  replayer.play(at ?? replayer.getCurrentTime());
  if (!playing) tell({ type: 'started' });
  playing = true;
}

function pause(): void {
  wantPlay = false;
  playing = false;
  replayer?.pause();
}

/** Scales the recorded viewport into the frame. */
function fit(): void {
  const wrapper = replayer?.wrapper;
  const iframe = replayer?.iframe;
  if (!wrapper || !iframe) return;
  const width = Number(iframe.width) || iframe.offsetWidth;
  const height = Number(iframe.height) || iframe.offsetHeight;
  if (!width || !height) return;
  const scale = Math.min(innerWidth / width, innerHeight / height, 1);
  wrapper.style.transform = `scale(${scale})`;
}

function receive(message: ToFrame): void {
  switch (message.type) {
    case 'events':
      if (replayer) {
        for (const e of message.events) replayer.addEvent(e as Parameters<Replayer['addEvent']>[0]);
      } else {
        waiting.push(...message.events);
        // The replayer starts on the first full snapshot; what came before it (the meta event) goes with it.
        if (waiting.some((e) => (e as { type?: number }).type === FULL_SNAPSHOT)) {
          const events = waiting;
          waiting = [];
          create(events);
        }
      }
      break;
    case 'play':
      play(message.at);
      break;
    case 'pause':
      pause();
      break;
    case 'seek':
      if (!replayer) {
        startAt = message.at;
        wantPlay = message.play;
      } else if (message.play) {
        replayer.play(message.at);
        playing = true;
      } else {
        replayer.pause(message.at);
        playing = false;
      }
      break;
    case 'speed':
      speed = message.speed;
      replayer?.setConfig({ speed });
      break;
    case 'skip':
      skip = message.skip;
      replayer?.setConfig({ skipInactive: skip });
      break;
  }
}

addEventListener('message', (event: MessageEvent) => {
  if (fromOwn(event, parent)) receive(event.data as ToFrame);
});
addEventListener('resize', fit);
setInterval(() => {
  if (!replayer) return;
  fit();
  tell({ type: 'time', at: Math.max(0, replayer.getCurrentTime()), total: replayer.getMetaData().totalTime, playing, skipping });
}, TICK_MS);
tell({ type: 'ready' });

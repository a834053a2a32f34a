// What the console page and the player frame say to each other (postMessage, same origin only):
// the page sends recorded events and commands, the frame answers with where playback is.

export type ToFrame =
  | { type: 'events'; events: unknown[] }
  | { type: 'play'; at?: number }
  | { type: 'pause' }
  | { type: 'seek'; at: number; play: boolean }
  | { type: 'speed'; speed: number }
  | { type: 'skip'; skip: boolean };

export type FromFrame =
  | { type: 'ready' }
  /** `at`: ms since the recording's first event; `total`: ms the player knows of so far. */
  | { type: 'time'; at: number; total: number; playing: boolean; skipping: boolean }
  | { type: 'started' }
  | { type: 'finished' };

/** Whether a message event comes from `source` on this origin (anything else is ignored). */
export function fromOwn(event: MessageEvent, source: MessageEventSource | null): boolean {
  return event.origin === location.origin && source !== null && event.source === source;
}

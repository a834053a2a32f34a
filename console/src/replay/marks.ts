// The marks on a recording's timeline and in its event list: the tracker's events of the session
// placed at their offset from the recording's start, each of one kind.

import type { Schemas } from '../api/client';

export type MarkKind = 'page' | 'click' | 'rage' | 'dead' | 'custom' | 'other';

export interface Mark {
  uuid: string;
  kind: MarkKind;
  /** ms since the recording's start, within [0, duration]. */
  at: number;
  label: string;
  detail: string;
}

const KINDS: Record<string, MarkKind> = { 'pp.page_view': 'page', 'pp.click': 'click', 'pp.rage_click': 'rage', 'pp.dead_click': 'dead' };
export const KIND_NAMES: Record<MarkKind, string> = { page: 'Page view', click: 'Click', rage: 'Rage click', dead: 'Dead click', custom: 'Custom event', other: 'Event' };

export function marksOf(recording: Schemas['RecordingDetail']): Mark[] {
  const start = Date.parse(recording.started_at);
  return recording.session_events.map((e) => {
    const kind = KINDS[e.event] ?? (e.event.startsWith('pp.') ? 'other' : 'custom');
    return {
      uuid: e.uuid,
      kind,
      at: Math.min(Math.max(Date.parse(e.ts) - start, 0), recording.duration_ms),
      label: kind === 'custom' || kind === 'other' ? e.event : KIND_NAMES[kind],
      detail: pathOf(e.url),
    };
  });
}

function pathOf(url: string | null): string {
  if (!url) return '';
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}${u.hash}`;
  } catch {
    return url;
  }
}

/** ms as m:ss (h:mm:ss past an hour). */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const two = (n: number) => String(n).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${two(Math.floor((s % 3600) / 60))}:${two(s % 60)}` : `${Math.floor(s / 60)}:${two(s % 60)}`;
}

// Per-project behavior settings: which autocapture kinds, recordings and diagnostics the tracker
// collects and under which privacy mode. Nothing stored means strict privacy with everything off.
// The public collection configuration derived from them is built in server/ingest/publicConfig.ts.

import type { MetaDb } from '../store/sqlite.js';

export interface BehaviorSettings {
  autocapture_clicks: boolean;
  autocapture_hover_intent: boolean;
  autocapture_sections: boolean;
  autocapture_scroll: boolean;
  autocapture_forms: boolean;
  privacy_mode: 'standard' | 'strict';
  replay_enabled: boolean;
  /** Share of sessions recorded once replay is enabled, 0..1. */
  replay_sample_rate: number;
  diagnostics_enabled: boolean;
}

export type BehaviorSettingsPatch = Partial<BehaviorSettings>;

export interface StoredBehaviorSettings extends BehaviorSettings {
  /** When they were last changed; null while the defaults apply. */
  updated_at: string | null;
}

const FLAGS = [
  'autocapture_clicks',
  'autocapture_hover_intent',
  'autocapture_sections',
  'autocapture_scroll',
  'autocapture_forms',
  'replay_enabled',
  'diagnostics_enabled',
] as const;

export const DEFAULT_BEHAVIOR_SETTINGS: Readonly<BehaviorSettings> = Object.freeze({
  autocapture_clicks: false,
  autocapture_hover_intent: false,
  autocapture_sections: false,
  autocapture_scroll: false,
  autocapture_forms: false,
  privacy_mode: 'strict',
  replay_enabled: false,
  // Enabling replay alone records every session; lowering the rate samples them.
  replay_sample_rate: 1,
  diagnostics_enabled: false,
});

type Row = Record<(typeof FLAGS)[number], number> & { privacy_mode: 'standard' | 'strict'; replay_sample_rate: number; updated_at: string };

export function getBehaviorSettings(meta: MetaDb, projectId: number): StoredBehaviorSettings {
  const row = meta.prepare(`SELECT ${FLAGS.join(', ')}, privacy_mode, replay_sample_rate, updated_at FROM behavior_settings WHERE project_id = ?`).get(projectId) as
    | Row
    | undefined;
  if (!row) return { ...DEFAULT_BEHAVIOR_SETTINGS, updated_at: null };
  const settings = { privacy_mode: row.privacy_mode, replay_sample_rate: row.replay_sample_rate, updated_at: row.updated_at } as StoredBehaviorSettings;
  for (const f of FLAGS) settings[f] = row[f] === 1;
  return settings;
}

/** Applies any subset of fields in one transaction: concurrent patches never lose each other's fields. */
export function patchBehaviorSettings(meta: MetaDb, projectId: number, patch: BehaviorSettingsPatch, userId: number | null, now: Date): StoredBehaviorSettings {
  return meta.transaction(() => {
    const { updated_at: _u, ...current } = getBehaviorSettings(meta, projectId);
    const next: BehaviorSettings = { ...current, ...patch };
    meta
      .prepare(
        `INSERT INTO behavior_settings (project_id, ${FLAGS.join(', ')}, privacy_mode, replay_sample_rate, updated_by, updated_at)
         VALUES (?, ${FLAGS.map(() => '?').join(', ')}, ?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET ${[...FLAGS, 'privacy_mode', 'replay_sample_rate', 'updated_by', 'updated_at'].map((c) => `${c} = excluded.${c}`).join(', ')}`,
      )
      .run(projectId, ...FLAGS.map((f) => (next[f] ? 1 : 0)), next.privacy_mode, next.replay_sample_rate, userId, now.toISOString());
    return getBehaviorSettings(meta, projectId);
  }).immediate();
}

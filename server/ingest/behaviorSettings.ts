// Per-project behavior settings: which autocapture kinds, recordings and diagnostics the tracker
// collects, under which privacy mode, and which query parameters of page URLs are kept. Nothing
// stored means strict privacy with everything off and query strings stripped. The public
// collection configuration derived from them is built in publicConfig.ts. They live with ingest,
// which obeys them; behavior/ serves the routes that read and change them.

import type { MetaDb } from '../store/sqlite.js';
import { ValidationError } from '../ground/errors.js';
import { keptParams, type KeptParams } from './urlQuery.js';

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
  /** Query strings of stored URLs reduced to campaign parameters and the allow-list; false keeps them whole. */
  url_query_strip: boolean;
  /** Parameter names kept besides the campaign ones, as they read once decoded. */
  url_query_allowlist: string[];
  /** Each event keeps its client address as props.$ip; otherwise the address is read for the country and dropped. */
  store_client_address: boolean;
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
  'url_query_strip',
  'store_client_address',
] as const;

export const ALLOWLIST_MAX_NAMES = 50;
export const ALLOWLIST_NAME_MAX = 100;

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
  url_query_strip: true,
  url_query_allowlist: [],
  store_client_address: false,
});

type Row = Record<(typeof FLAGS)[number], number> & { privacy_mode: 'standard' | 'strict'; replay_sample_rate: number; url_query_allowlist: string; updated_at: string };

/** A name no decoded parameter name could equal, or one the list already holds, is refused with a message quoting it. */
export function validateBehaviorPatch(patch: BehaviorSettingsPatch): void {
  const names = patch.url_query_allowlist;
  if (names === undefined) return;
  const seen = new Set<string>();
  names.forEach((name, i) => {
    const field = `url_query_allowlist[${i}]`;
    if (name.trim() !== name || name === '') throw new ValidationError(`${field} ${JSON.stringify(name)} must not be empty or start or end with a space`, field);
    for (const c of ['&', '=', '#']) {
      if (name.includes(c)) throw new ValidationError(`${field} ${JSON.stringify(name)} must be a parameter name, without "${c}"`, field);
    }
    if (seen.has(name)) throw new ValidationError(`${field} ${JSON.stringify(name)} is listed twice`, field);
    seen.add(name);
  });
}

export function getBehaviorSettings(meta: MetaDb, projectId: number): StoredBehaviorSettings {
  const row = meta.prepare(`SELECT ${FLAGS.join(', ')}, privacy_mode, replay_sample_rate, url_query_allowlist, updated_at FROM behavior_settings WHERE project_id = ?`).get(projectId) as
    | Row
    | undefined;
  if (!row) return { ...DEFAULT_BEHAVIOR_SETTINGS, url_query_allowlist: [], updated_at: null };
  const settings = {
    privacy_mode: row.privacy_mode,
    replay_sample_rate: row.replay_sample_rate,
    url_query_allowlist: JSON.parse(row.url_query_allowlist) as string[],
    updated_at: row.updated_at,
  } as StoredBehaviorSettings;
  for (const f of FLAGS) settings[f] = row[f] === 1;
  return settings;
}

/** Applies any subset of fields in one transaction: concurrent patches never lose each other's fields. */
export function patchBehaviorSettings(meta: MetaDb, projectId: number, patch: BehaviorSettingsPatch, userId: number | null, now: Date): StoredBehaviorSettings {
  validateBehaviorPatch(patch);
  return meta
    .transaction(() => {
      const { updated_at: _u, ...current } = getBehaviorSettings(meta, projectId);
      const next: BehaviorSettings = { ...current, ...patch };
      meta
        .prepare(
          `INSERT INTO behavior_settings (project_id, ${FLAGS.join(', ')}, privacy_mode, replay_sample_rate, url_query_allowlist, updated_by, updated_at)
         VALUES (?, ${FLAGS.map(() => '?').join(', ')}, ?, ?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET ${[...FLAGS, 'privacy_mode', 'replay_sample_rate', 'url_query_allowlist', 'updated_by', 'updated_at'].map((c) => `${c} = excluded.${c}`).join(', ')}`,
        )
        .run(projectId, ...FLAGS.map((f) => (next[f] ? 1 : 0)), next.privacy_mode, next.replay_sample_rate, JSON.stringify(next.url_query_allowlist), userId, now.toISOString());
      return getBehaviorSettings(meta, projectId);
    })
    .immediate();
}

/** What ingestion keeps of the project's events: the query parameters of stored URLs and whether the client address is stored. Read once per ingest request. */
export function ingestPolicy(meta: MetaDb, projectId: number): { keptParams: KeptParams; storeClientAddress: boolean } {
  const row = meta.prepare('SELECT url_query_strip, url_query_allowlist, store_client_address FROM behavior_settings WHERE project_id = ?').get(projectId) as
    | { url_query_strip: number; url_query_allowlist: string; store_client_address: number }
    | undefined;
  if (!row) return { keptParams: keptParams(true, []), storeClientAddress: false };
  return { keptParams: keptParams(row.url_query_strip === 1, JSON.parse(row.url_query_allowlist) as string[]), storeClientAddress: row.store_client_address === 1 };
}

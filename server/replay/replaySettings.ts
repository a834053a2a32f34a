// How long a project keeps its recordings (replay_retention_days, 30 unless changed) and how much
// storage its recordings take, for project settings. Deleting old recordings is replayRetention.ts's.

import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { readEvents } from '../events/timeLimit.js';
import { statementsOf } from '../engine/statements.js';

export const DEFAULT_RETENTION_DAYS = 30;
export const MAX_RETENTION_DAYS = 3650;

export function retentionDays(meta: MetaDb, projectId: number): number {
  const row = meta.prepare('SELECT retention_days FROM replay_settings WHERE project_id = ?').get(projectId) as { retention_days: number } | undefined;
  return row?.retention_days ?? DEFAULT_RETENTION_DAYS;
}

export function setRetentionDays(meta: MetaDb, projectId: number, days: number, userId: number, now: Date): void {
  meta
    .prepare(
      `INSERT INTO replay_settings (project_id, retention_days, updated_by, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET retention_days = excluded.retention_days, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
    )
    .run(projectId, days, userId, now.toISOString());
}

export interface ReplaySettings {
  replay_retention_days: number;
  /** Recordings stored now, the size of their rrweb events as sent, and as stored (compressed). */
  recordings: number;
  raw_bytes: number;
  stored_bytes: number;
}

export async function replaySettings(services: Services, projectId: number): Promise<ReplaySettings> {
  const [row] = await readEvents(services, statementsOf(services.events).replay.recordingsStorageSql(projectId));
  return {
    replay_retention_days: retentionDays(services.meta, projectId),
    recordings: Number(row?.recordings ?? 0),
    raw_bytes: Number(row?.raw_bytes ?? 0),
    stored_bytes: Number(row?.stored_bytes ?? 0),
  };
}

// Deploy markers recorded with a release token. Every call carries an Idempotency-Key: a new key
// creates the marker, the same key with the same body replays it, the same key with another body
// is a conflict. Other domains read markers through listDeployMarkers.

import { createHash } from 'node:crypto';
import type { Services } from '../http/services.js';
import type { MetaDb } from '../store/sqlite.js';
import { ConflictError, ValidationError } from '../ground/errors.js';

export interface DeployInput {
  release: string;
  environment?: string;
  commit?: string;
  deployed_at?: string;
  url?: string;
  description?: string;
}

export interface DeployMarker {
  id: number;
  project_id: number;
  release: string;
  environment: string | null;
  commit: string | null;
  deployed_at: string;
  url: string | null;
  description: string | null;
  created_at: string;
}

/** 8 to 128 printable ASCII characters without spaces or commas. */
const IDEMPOTENCY_KEY = /^[\x21-\x2b\x2d-\x7e]{8,128}$/;

export function checkIdempotencyKey(value: string | undefined): string {
  if (value === undefined || value === '') throw new ValidationError('the Idempotency-Key header is required', 'Idempotency-Key');
  if (!IDEMPOTENCY_KEY.test(value)) {
    throw new ValidationError('Idempotency-Key must be 8 to 128 printable characters without spaces or commas', 'Idempotency-Key');
  }
  return value;
}

/** SHA-256 of the body with its keys sorted, so field order does not make two bodies differ. */
export function bodyHash(input: DeployInput): string {
  const sorted = Object.fromEntries(Object.entries(input).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

const COLUMNS = 'id, project_id, release, environment, commit_sha AS "commit", deployed_at, url, description, created_at';

export function recordDeployMarker(services: Services, projectId: number, tokenId: number, idempotencyKey: string, input: DeployInput): { marker: DeployMarker; replayed: boolean } {
  const hash = bodyHash(input);
  const now = services.clock.now().toISOString();
  const find = services.meta.prepare(`SELECT ${COLUMNS}, body_hash FROM deploy_markers WHERE project_id = ? AND idempotency_key = ?`);
  return services.meta.transaction(() => {
    const existing = find.get(projectId, idempotencyKey) as (DeployMarker & { body_hash: string }) | undefined;
    if (existing) {
      if (existing.body_hash !== hash) throw new ConflictError('this Idempotency-Key was already used with a different body', 'idempotency_conflict');
      const { body_hash: _h, ...marker } = existing;
      return { marker, replayed: true };
    }
    const info = services.meta
      .prepare(
        `INSERT INTO deploy_markers (project_id, token_id, idempotency_key, body_hash, release, environment, commit_sha, deployed_at, url, description, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        projectId,
        tokenId,
        idempotencyKey,
        hash,
        input.release,
        input.environment ?? null,
        input.commit ?? null,
        input.deployed_at ? new Date(input.deployed_at).toISOString() : now,
        input.url ?? null,
        input.description ?? null,
        now,
      );
    const marker = services.meta.prepare(`SELECT ${COLUMNS} FROM deploy_markers WHERE id = ?`).get(Number(info.lastInsertRowid)) as DeployMarker;
    return { marker, replayed: false };
  })();
}

/** Markers of a project, oldest first, optionally within [from, to). */
export function listDeployMarkers(meta: MetaDb, projectId: number, range: { from?: Date; to?: Date } = {}): DeployMarker[] {
  return meta
    .prepare(`SELECT ${COLUMNS} FROM deploy_markers WHERE project_id = ? AND deployed_at >= ? AND deployed_at < ? ORDER BY deployed_at, id`)
    .all(projectId, range.from?.toISOString() ?? '', range.to?.toISOString() ?? '\uffff') as DeployMarker[];
}

export function presentDeployMarker(marker: DeployMarker): Record<string, unknown> {
  const { project_id: _p, ...rest } = marker;
  return rest;
}

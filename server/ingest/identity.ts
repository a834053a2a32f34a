// Identity links: identify ties an anonymous id to a user id, alias a previous id to a user id.
// identity_links maps every linked distinct id straight to its final actor (never through a
// chain), so a query resolves an event's actor with one join: COALESCE(link.actor_id, distinct_id),
// or by key (distinctKey.ts), COALESCE(link.actor_key, distinct_key).
// Rules (docs/ingestion.md): an id already linked keeps its first actor (first claim wins); linking
// an actor into another re-points everything that pointed at it; linking an id to itself is a no-op.

import { TIMESTAMPTZ, VARCHAR, INTEGER, timestampTZValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Services } from '../http/services.js';
import type { IngestCredential } from './ingestCredential.js';
import { ingestWriter } from './groupWriter.js';
import { rejectionRows } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import type { IngestResult } from './track.js';
import { idText, sizeDefect } from './eventSchema.js';
import { jsonText } from './jsonText.js';
import { ValidationError } from '../ground/errors.js';

export const TRAITS_MAX_BYTES = 16 * 1024;

export type LinkOutcome = 'linked' | 'unchanged' | 'conflict';

async function linkedActor(conn: DuckDBConnection, projectId: number, distinctId: string): Promise<string | undefined> {
  const reader = await conn.runAndReadAll('SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', [projectId, distinctId], [INTEGER, VARCHAR]);
  const row = reader.getRowObjects()[0];
  return row ? String(row.actor_id) : undefined;
}

/**
 * Links `fromId` (and every id already resolved to it) to the actor of `toId`. Runs as an
 * exclusive writer job, so the check and the write see no other link change in between.
 */
export function linkIdentity(services: Services, projectId: number, fromId: string, toId: string): Promise<LinkOutcome> {
  const now = services.clock.now();
  return ingestWriter(services).exclusive(async (conn) => {
    const target = (await linkedActor(conn, projectId, toId)) ?? toId;
    if (target === fromId) return 'unchanged';
    const current = await linkedActor(conn, projectId, fromId);
    if (current !== undefined) return current === target ? 'unchanged' : 'conflict';
    // One statement, so a crash cannot leave `fromId` linked while ids that pointed at it are not.
    await services.events.changedAfter([projectId], () => conn.run(
      `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
         SELECT $1, $2, $3, $4, md5_number_lower($2), md5_number_lower($3)
         UNION ALL
         SELECT project_id, distinct_id, $3, $4, distinct_key, md5_number_lower($3) FROM identity_links WHERE project_id = $1 AND actor_id = $2
       ON CONFLICT (project_id, distinct_id) DO UPDATE SET actor_id = excluded.actor_id, actor_key = excluded.actor_key, linked_at = excluded.linked_at`,
      [projectId, fromId, target, timestampTZValue(BigInt(now.getTime()) * 1000n)],
      [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
    ));
    return 'linked';
  }, { changes: 'reported' });
}

/**
 * Merges traits into what is stored for the user: later keys win, a null value removes a key. With
 * `once`, a key already stored keeps its value (PostHog's `$set_once`).
 */
export function mergeTraits(services: Services, projectId: number, userId: string, traits: Record<string, unknown>, once = false): Promise<void> {
  const now = services.clock.now();
  const merged = once ? 'json_merge_patch($3::JSON, actor_traits.traits)' : 'json_merge_patch(actor_traits.traits, $3::JSON)';
  return ingestWriter(services).exclusive(async (conn) => {
    await services.events.changedAfter([projectId], () => conn.run(
      `INSERT INTO actor_traits (project_id, user_id, traits, updated_at) VALUES ($1, $2, json_merge_patch('{}', $3::JSON), $4)
       ON CONFLICT (project_id, user_id) DO UPDATE SET traits = ${merged}, updated_at = excluded.updated_at`,
      [projectId, userId, jsonText(traits), timestampTZValue(BigInt(now.getTime()) * 1000n)],
      [INTEGER, VARCHAR, VARCHAR, TIMESTAMPTZ],
    ));
  }, { changes: 'reported' });
}

export interface LinkContext {
  credential: IngestCredential;
  sdk: SdkInfo | null;
  requestId: string;
}

const CONFLICT_MESSAGE = {
  identify: 'anonymous_id already belongs to another user; the first claim wins',
  alias: 'previous_id already belongs to another user; the first claim wins',
};

async function answer(services: Services, ctx: LinkContext, operation: 'identify' | 'alias', outcome: LinkOutcome): Promise<IngestResult> {
  if (outcome !== 'conflict') return { accepted: 1, rejected: [] };
  const refusal = { index: 0, code: 'identity_conflict', message: CONFLICT_MESSAGE[operation] };
  const rejections = rejectionRows(services, { ...ctx, operation, receivedAt: services.clock.now() }, [{ ...refusal, event: null }]);
  if (rejections.length > 0) await ingestWriter(services).submit({ events: [], rejections });
  return { accepted: 0, rejected: [refusal] };
}

export async function identify(
  services: Services,
  body: { anonymous_id: string | number; user_id: string | number; traits?: Record<string, unknown> },
  ctx: LinkContext,
): Promise<IngestResult> {
  const defect = sizeDefect('traits', body.traits, TRAITS_MAX_BYTES);
  if (defect) throw new ValidationError(defect.message, 'traits');
  const projectId = ctx.credential.key.project_id;
  const userId = idText(body.user_id);
  const outcome = await linkIdentity(services, projectId, idText(body.anonymous_id), userId);
  if (body.traits && Object.keys(body.traits).length > 0) await mergeTraits(services, projectId, userId, body.traits);
  return answer(services, ctx, 'identify', outcome);
}

export async function alias(services: Services, body: { previous_id: string | number; user_id: string | number }, ctx: LinkContext): Promise<IngestResult> {
  const outcome = await linkIdentity(services, ctx.credential.key.project_id, idText(body.previous_id), idText(body.user_id));
  return answer(services, ctx, 'alias', outcome);
}

/** The actor a distinct id resolves to (its own id when unlinked); for tests and later readers. */
export async function resolveActor(services: Services, projectId: number, distinctId: string): Promise<string> {
  const rows = await services.events.read('SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', [projectId, distinctId]);
  return rows[0] ? String(rows[0].actor_id) : distinctId;
}

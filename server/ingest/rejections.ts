// Sanitized records of refused ingestion attempts, read by the Integration Doctor. A record
// names the key's public id, the client, the event name and a fixed code and message: never
// property values, bodies or credentials. Recording is budgeted per key so a public browser
// token cannot flood the table.

import type { Services } from '../http/services.js';
import type { SqlParams } from '../store/eventStore.js';
import { RateLimitedError } from '../ground/errors.js';
import type { IngestCredential, IngestOperation } from './ingestCredential.js';
import type { SdkInfo } from './sdkInfo.js';

export interface RejectionRow {
  project_id: number;
  received_at: Date;
  request_id: string;
  event_index: number | null;
  operation: IngestOperation;
  key_id: string;
  source: string;
  sdk_name: string | null;
  sdk_version: string | null;
  event: string | null;
  code: string;
  message: string;
}

export const EVENT_NAME_LIMIT = 200;
const RECORDS_PER_KEY_PER_MINUTE = 600;

export interface RejectionContext {
  credential: IngestCredential;
  operation: IngestOperation;
  sdk: SdkInfo | null;
  requestId: string;
  receivedAt: Date;
}

/** Builds the records of one request, as many as the key's budget still allows. */
export function rejectionRows(
  services: Services,
  ctx: RejectionContext,
  refusals: ReadonlyArray<{ index: number | null; event: unknown; code: string; message: string }>,
): RejectionRow[] {
  const rows: RejectionRow[] = [];
  for (const r of refusals) {
    try {
      services.limiter.take('ingest-rejections', ctx.credential.key.public_id, { perMinute: RECORDS_PER_KEY_PER_MINUTE });
    } catch (err) {
      if (err instanceof RateLimitedError) break;
      throw err;
    }
    rows.push({
      project_id: ctx.credential.key.project_id,
      received_at: ctx.receivedAt,
      request_id: ctx.requestId,
      event_index: r.index,
      operation: ctx.operation,
      key_id: ctx.credential.key.public_id,
      source: ctx.credential.source,
      sdk_name: ctx.sdk?.name ?? null,
      sdk_version: ctx.sdk?.version ?? null,
      event: typeof r.event === 'string' ? r.event.slice(0, EVENT_NAME_LIMIT) : null,
      code: r.code,
      message: r.message,
    });
  }
  return rows;
}

/** A stored rejection as the doctor view reads it: times as ISO strings, no project id. */
export type RejectedAttempt = Omit<RejectionRow, 'project_id' | 'received_at' | 'operation'> & { received_at: string; operation: string };

export interface RejectedAttemptQuery {
  projectId: number;
  /** Half-open range [from, to) on received_at. */
  from: Date;
  to: Date;
  event?: string;
  sdkName?: string;
  source?: string;
  limit: number;
  /** Keyset position: records strictly after this one in the order below. */
  after?: { received_at: string; request_id: string; event_index: number | null };
}

/** Newest first, ties broken by request id then event index (a stable order for cursors). */
export async function readRejectedAttempts(services: Services, q: RejectedAttemptQuery, timeoutMs?: number): Promise<RejectedAttempt[]> {
  const where = ['project_id = $project', 'received_at >= $from::TIMESTAMPTZ', 'received_at < $to::TIMESTAMPTZ'];
  const params: Record<string, string | number> = { project: q.projectId, from: q.from.toISOString(), to: q.to.toISOString(), limit: q.limit };
  if (q.event !== undefined) (where.push('event = $event'), (params.event = q.event));
  if (q.sdkName !== undefined) (where.push('sdk_name = $sdk'), (params.sdk = q.sdkName));
  if (q.source !== undefined) (where.push('source = $source'), (params.source = q.source));
  if (q.after) {
    where.push('(received_at, request_id, COALESCE(event_index, -1)) < ($at::TIMESTAMPTZ, $rid, $idx)');
    Object.assign(params, { at: q.after.received_at, rid: q.after.request_id, idx: q.after.event_index ?? -1 });
  }
  const rows = await services.events.read(
    `SELECT strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at, request_id, event_index, operation, key_id, source, sdk_name, sdk_version, event, code, message
       FROM ingest_rejections WHERE ${where.join(' AND ')}
      ORDER BY received_at DESC, request_id DESC, COALESCE(event_index, -1) DESC LIMIT $limit`,
    params as SqlParams,
    { timeoutMs },
  );
  return rows.map((r) => ({ ...(r as unknown as RejectedAttempt), event_index: r.event_index === null ? null : Number(r.event_index) }));
}

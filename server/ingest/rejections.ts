// Sanitized records of refused ingestion attempts, read by the Integration Doctor. A record
// names the key's public id, the client, the event name and a fixed code and message: never
// property values, bodies or credentials. Recording is budgeted per key so a public browser
// token cannot flood the table.

import type { Services } from '../http/services.js';
import { statementsOf } from '../engine/statements.js';
import { RateLimitedError } from '../ground/errors.js';
import type { IngestCredential, IngestOperation } from './ingestCredential.js';
import type { SdkInfo } from './sdkInfo.js';
import { ingestWriter } from './groupWriter.js';
import type { IngestResult } from './track.js';

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
export function rejectionRows(services: Services, ctx: RejectionContext, refusals: ReadonlyArray<{ index: number | null; event: unknown; code: string; message: string }>): RejectionRow[] {
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
  const q2 = statementsOf(services.events).ingest.rejectedAttemptsSql(q);
  const rows = await services.events.read(q2.sql, q2.params, { timeoutMs });
  return rows.map((r) => ({ ...(r as unknown as RejectedAttempt), event_index: r.event_index === null ? null : Number(r.event_index) }));
}

/** Refuses a request of one item (identify, alias, a recording chunk): recorded for the doctor, answered with nothing accepted. */
export async function refuseRequest(services: Services, ctx: RejectionContext, refusal: { code: string; message: string }): Promise<IngestResult> {
  const rejected = { index: 0, ...refusal };
  const rejections = rejectionRows(services, ctx, [{ ...rejected, event: null }]);
  if (rejections.length > 0) await ingestWriter(services).submit({ events: [], rejections });
  return { accepted: 0, rejected: [rejected] };
}

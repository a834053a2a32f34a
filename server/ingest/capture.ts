// /v1/capture: the element the picker captured, stored for the labeled-events picker to poll.
// Stored under the HMAC of the picker token (the token itself never rests here); whether the
// token is valid is for the picker's reader to judge when it polls with it.

import { createHmac } from 'node:crypto';
import { statementsOf } from '../engine/statements.js';
import type { Services } from '../http/services.js';
import { AppError } from '../ground/errors.js';
import { deriveKey } from '../ground/secretKeys.js';
import type { IngestCredential } from './ingestCredential.js';
import { ingestWriter } from './groupWriter.js';
import type { IngestResult } from './track.js';
import { jsonText } from './jsonText.js';

export const CAPTURE_MAX_BYTES = 64 * 1024;

export interface ElementInfo {
  tag: string;
  id?: string;
  classes?: string[];
  nth_child?: number;
  text?: string;
  attributes?: Record<string, string>;
}

export interface CaptureBody {
  picker_token: string;
  nonce: string;
  url: string;
  selector: string;
  element: ElementInfo;
  chain: ElementInfo[];
}

export interface StoredCapture {
  project_id: number;
  nonce: string;
  url: string;
  selector: string;
  element: ElementInfo;
  chain: ElementInfo[];
  received_at: string;
}

export function pickerTokenHash(services: Services, pickerToken: string): string {
  return createHmac('sha256', deriveKey(services.secret, 'token-hash')).update(`picker:${pickerToken}`).digest('hex');
}

export async function storeCapture(services: Services, body: CaptureBody, ctx: { credential: IngestCredential }): Promise<IngestResult> {
  const { credential } = ctx;
  const element = jsonText(body.element);
  const chain = jsonText(body.chain);
  if (Buffer.byteLength(element) + Buffer.byteLength(chain) + body.selector.length + body.url.length > CAPTURE_MAX_BYTES) {
    throw new AppError(413, 'payload_too_large', `a capture holds at most ${CAPTURE_MAX_BYTES} bytes`, { limit_bytes: CAPTURE_MAX_BYTES });
  }
  const now = services.clock.now();
  const capture = {
    tokenHash: pickerTokenHash(services, body.picker_token),
    projectId: credential.key.project_id,
    keyId: credential.key.public_id,
    nonce: body.nonce,
    url: body.url,
    selector: body.selector,
    element,
    chain,
    receivedAt: now,
  };
  await ingestWriter(services).exclusive(
    (conn) => statementsOf(services.events).ingest.storeCapture(conn, capture),
    // No analytical query reads this table: cached answers stay.
    { changes: 'reported' },
  );
  return { accepted: 1, rejected: [] };
}

/** The capture stored under a picker token for a project, if any. */
export async function readCapture(services: Services, projectId: number, pickerToken: string): Promise<StoredCapture | undefined> {
  const q = statementsOf(services.events).ingest.captureSql(projectId, pickerTokenHash(services, pickerToken));
  const rows = await services.events.read(q.sql, q.params);
  const r = rows[0];
  if (!r) return undefined;
  return {
    project_id: Number(r.project_id),
    nonce: String(r.nonce),
    url: String(r.url),
    selector: String(r.selector),
    element: JSON.parse(String(r.element)) as ElementInfo,
    chain: JSON.parse(String(r.chain)) as ElementInfo[],
    received_at: String(r.received_at),
  };
}

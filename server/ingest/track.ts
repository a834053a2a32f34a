// /v1/track: a batch `{events: [...]}` or one event object. Each event is checked and normalized;
// defective ones are refused in `rejected[]` (and recorded for the doctor), the rest go through
// the group-commit writer. The answer comes only after the commit.

import type { Services } from '../http/services.js';
import { AppError } from '../ground/errors.js';
import type { IngestCredential } from './ingestCredential.js';
import { checkEvent } from './eventSchema.js';
import { ingestWriter } from './groupWriter.js';
import { countIngested, orgOfProject } from '../billing/accountState.js';
import { normalizeEvent, type EventRow } from './normalizeEvent.js';
import { rejectionRows } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import { urlQueryPolicy } from '../behavior/behaviorSettings.js';

export const MAX_EVENTS_PER_REQUEST = 500;

export interface Refusal {
  index: number;
  code: string;
  message: string;
}

export interface IngestResult {
  accepted: number;
  rejected: Refusal[];
}

export interface TrackContext {
  credential: IngestCredential;
  sdk: SdkInfo | null;
  requestId: string;
}

export class TooManyEventsError extends AppError {
  constructor(count: number) {
    super(413, 'payload_too_large', `a request carries at most ${MAX_EVENTS_PER_REQUEST} events`, { limit_events: MAX_EVENTS_PER_REQUEST, events: count });
  }
}

/** The events of a request body (already checked to be an object with an `events` array, or one event). */
export function eventsOf(body: Record<string, unknown>): unknown[] {
  if (Array.isArray(body.events)) return body.events;
  const { credential: _c, tracker: _t, ...event } = body;
  return [event];
}

export async function trackEvents(services: Services, body: Record<string, unknown>, ctx: TrackContext): Promise<IngestResult> {
  const items = eventsOf(body);
  if (items.length > MAX_EVENTS_PER_REQUEST) throw new TooManyEventsError(items.length);
  return storeEvents(services, items.map((item, index) => ({ index, item })), ctx);
}

/** An item of a request and the refusal of one its sender already judged (e.g. a PostHog payload's). */
export type Refused = Refusal & { event: unknown };

/**
 * Checks, normalizes and stores items of a request (each with its index there), after the commit;
 * `refused` are items the caller refused before, recorded and answered with these.
 */
export async function storeEvents(services: Services, items: Array<{ index: number; item: unknown }>, ctx: TrackContext, refused: Refused[] = []): Promise<IngestResult> {
  const receivedAt = services.clock.now();
  const { key, source } = ctx.credential;
  const normalize = { projectId: key.project_id, receivedAt, source, sdk: ctx.sdk, keyId: key.public_id, keptParams: urlQueryPolicy(services.meta, key.project_id) };
  const rows: EventRow[] = [];
  const all = [...refused];
  for (const { index, item } of items) {
    const checked = checkEvent(item);
    if ('defect' in checked) all.push({ index, ...checked.defect, event: (item as { event?: unknown } | null)?.event });
    else rows.push(normalizeEvent(checked.event, normalize, checked.text));
  }
  all.sort((a, b) => a.index - b.index);
  const rejections = rejectionRows(services, { credential: ctx.credential, operation: 'track', sdk: ctx.sdk, requestId: ctx.requestId, receivedAt }, all);
  await ingestWriter(services).submit({ events: rows, rejections });
  if (services.config.edition === 'cloud') countIngested(services, orgOfProject(services, key.project_id)!, rows.length);
  return { accepted: rows.length, rejected: all.map(({ index, code, message }) => ({ index, code, message })) };
}

// /v1/track: a batch `{events: [...]}` or one event object. Each event is checked and normalized;
// defective ones, and those of a deleted person (erasedPersons.ts), are refused in `rejected[]`
// (and recorded for the doctor), the rest go through the group-commit writer. The answer comes
// only after the commit.

import type { Services } from '../http/services.js';
import { AppError } from '../ground/errors.js';
import type { IngestCredential } from './ingestCredential.js';
import { checkEvent, type EventDefect } from './eventSchema.js';
import { ingestWriter } from './groupWriter.js';
import { countIngested, orgOfProject } from '../billing/accountState.js';
import { normalizeEvent, type EventRow } from './normalizeEvent.js';
import { rejectionRows } from './rejections.js';
import type { SdkInfo } from './sdkInfo.js';
import { ingestPolicy } from './behaviorSettings.js';
import { erasedRefusals } from './erasedPersons.js';
import type { ClientHints } from '../web/eventProps.js';

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
  /** The request's user agent and address; server keys' requests describe the sender, not a visitor, so theirs are ignored. */
  client?: ClientHints;
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
  return storeEvents(
    services,
    items.map((item, index) => ({ index, item })),
    ctx,
  );
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
  const normalize = {
    projectId: key.project_id,
    receivedAt,
    source,
    sdk: ctx.sdk,
    keyId: key.public_id,
    ...ingestPolicy(services.meta, key.project_id),
    client: source === 'server' ? undefined : ctx.client,
  };
  const normalized: Array<{ index: number; row: EventRow; consent?: boolean }> = [];
  const all = [...refused];
  const instantsBefore = services.events.instantsBefore;
  for (const { index, item } of items) {
    const checked = checkEvent(item);
    if ('defect' in checked) all.push({ index, ...checked.defect, event: (item as { event?: unknown } | null)?.event });
    else if (instantsBefore !== undefined && checked.event.ts !== undefined && Date.parse(checked.event.ts) >= instantsBefore)
      all.push({ index, ...beyondEngine(instantsBefore), event: checked.event.event });
    else normalized.push({ index, row: normalizeEvent(checked.event, normalize, checked.text), consent: checked.event.consent });
  }
  const erased = erasedRefusals(
    services,
    ctx.credential,
    normalized.map((n) => ({ index: n.index, ids: [n.row.distinct_id, n.row.anonymous_id, n.row.user_id], consent: n.consent })),
  );
  const rows: EventRow[] = [];
  for (const n of normalized) {
    const refusal = erased.get(n.index);
    if (refusal) all.push({ index: n.index, ...refusal, event: n.row.event });
    else rows.push(n.row);
  }
  all.sort((a, b) => a.index - b.index);
  const rejections = rejectionRows(services, { credential: ctx.credential, operation: 'track', sdk: ctx.sdk, requestId: ctx.requestId, receivedAt }, all);
  await ingestWriter(services).submit({ events: rows, rejections });
  if (services.config.edition === 'cloud') countIngested(services, orgOfProject(services, key.project_id)!, rows.length);
  return { accepted: rows.length, rejected: all.map(({ index, code, message }) => ({ index, code, message })) };
}

/** An event timed where the installation's event engine cannot store it (ClickHouse's DateTime ends in 2106). */
function beyondEngine(instantsBefore: number): EventDefect {
  return { code: 'invalid_field', message: `ts must be before ${new Date(instantsBefore).toISOString()} on this installation's event store (ClickHouse)` };
}

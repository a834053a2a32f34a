// One event as the events list and the live stream show it: the stored fields plus the actor the
// event resolves to now. Built either from a row of the list query or from a just-committed event.

import type { Row } from '../engine/engine.js';
import type { CommittedEvent } from '../ingest/eventBus.js';

/** The committed event's fields, less the project, plus the actor it resolves to now. */
export type EventItem = Omit<CommittedEvent, 'project_id' | 'source'> & { actor_id: string; source: string };

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
const iso = (ms: unknown) => new Date(Number(ms)).toISOString();

export function itemFromRow(r: Row): EventItem {
  return {
    uuid: String(r.uuid),
    event: String(r.event),
    ts: iso(r.ts_ms),
    received_at: iso(r.received_ms),
    actor_id: String(r.actor_id),
    distinct_id: String(r.distinct_id),
    anonymous_id: text(r.anonymous_id),
    user_id: text(r.user_id),
    session_id: text(r.session_id),
    source: String(r.source),
    sdk_name: text(r.sdk_name),
    sdk_version: text(r.sdk_version),
    release: text(r.release),
    url: text(r.url),
    path: text(r.path),
    referrer: text(r.referrer),
    props: r.props === null ? null : (JSON.parse(String(r.props)) as Record<string, unknown>),
    revenue: r.revenue === null ? null : Number(r.revenue),
    // Engines answer a flag as a boolean or as 1, a list as JSON text or as an array.
    invalid: r.invalid === true || r.invalid === 1,
    invalid_reasons: Array.isArray(r.invalid_reasons) ? (r.invalid_reasons as string[]) : (JSON.parse(String(r.invalid_reasons)) as string[]),
  };
}

export function itemFromCommitted(e: CommittedEvent, actorId: string): EventItem {
  return {
    uuid: e.uuid,
    event: e.event,
    ts: e.ts,
    received_at: e.received_at,
    actor_id: actorId,
    distinct_id: e.distinct_id,
    anonymous_id: e.anonymous_id,
    user_id: e.user_id,
    session_id: e.session_id,
    source: e.source,
    sdk_name: e.sdk_name,
    sdk_version: e.sdk_version,
    release: e.release,
    url: e.url,
    path: e.path,
    referrer: e.referrer,
    props: e.props,
    revenue: e.revenue,
    invalid: e.invalid,
    invalid_reasons: e.invalid_reasons,
  };
}

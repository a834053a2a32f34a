// Turns a checked event into the row that is stored: server receipt time, client time kept,
// identity and source, revenue parsed from props.revenue, url and referrer without the query
// parameters the project does not keep, url split into url and path. Soft defects (non-numeric
// revenue, a clock far ahead) keep the event but mark it invalid. The web fields (server/web) are
// added to props from the URL and referrer as sent, before their query strings are stripped.

import { randomUUID } from 'node:crypto';
import type { CommittedEvent } from './eventBus.js';
import type { SdkInfo } from './sdkInfo.js';
import type { EventJsonText, TrackEvent } from './eventSchema.js';
import { jsonText } from './jsonText.js';
import { elementColumns } from './elementColumns.js';
import type { StoredEvent } from '../engine/rows.js';
import { keptParams, stripUrlQuery, type KeptParams } from './urlQuery.js';
import { withWebFields, type ClientHints } from '../web/eventProps.js';

/** Who sent an event: a browser key, a server key, or a legacy key (unknown). Labeled events are `system`. */
export type EventSource = 'browser' | 'server' | 'unknown';

/** How far ahead of the server a client clock may be before its events are marked invalid. */
export const FUTURE_TOLERANCE_MS = 60 * 60 * 1000;

/** An event as stored (engine/rows.ts), with what the writer hands on to the live stream. */
export interface EventRow extends StoredEvent {
  source: EventSource | 'system';
  /** The parsed properties, handed to event bus subscribers (not a column). */
  props_value: Record<string, unknown> | null;
}

export interface NormalizeContext {
  projectId: number;
  receivedAt: Date;
  source: EventSource;
  sdk: SdkInfo | null;
  keyId: string;
  /** The query parameters the project keeps in URLs (urlQueryPolicy); absent, the default: campaign parameters only. */
  keptParams?: KeptParams;
  /** The request's user agent and address, for the web fields (server/web); the address is stored only with storeClientAddress. */
  client?: ClientHints;
  /** The project stores the client address (a forwarded `$ip`, else the request's) as props.$ip. */
  storeClientAddress?: boolean;
}

const DEFAULT_KEPT = keptParams(true, []);

/** A URL field as stored: its query reduced to the kept parameters; nothing left is no URL. */
function storedUrl(url: string | null | undefined, kept: KeptParams): string | null {
  if (url === undefined || url === null) return null;
  const stripped = stripUrlQuery(url, kept);
  return stripped === '' && url !== '' ? null : stripped;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** props.revenue as a signed number: numbers and numeric strings count; anything else is a soft defect. */
export function parseRevenue(value: unknown): { revenue: number | null; invalid?: true } {
  if (value === undefined || value === null) return { revenue: null };
  if (typeof value === 'number') return Number.isFinite(value) ? { revenue: value } : { revenue: null, invalid: true };
  if (typeof value === 'string' && NUMBER.test(value.trim())) {
    const n = Number(value.trim());
    if (Number.isFinite(n)) return { revenue: n };
  }
  return { revenue: null, invalid: true };
}

/**
 * The path of an absolute URL, or of a relative one that starts with `/`. A URL without such a
 * path (`mailto:…`, `app:home`) has none, so every stored path starts with `/`.
 */
export function pathOf(url: string | null): string | null {
  if (!url) return null;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split(/[?#]/, 1)[0]!;
  }
  return path.startsWith('/') ? path : null;
}

/** `text`: the JSON.stringify of props and elements, when the check computed it. */
export function normalizeEvent(ev: TrackEvent, ctx: NormalizeContext, text?: EventJsonText): EventRow {
  const reasons: string[] = [];
  let ts = ctx.receivedAt;
  if (ev.ts !== undefined) {
    ts = new Date(ev.ts);
    if (ts.getTime() - ctx.receivedAt.getTime() > FUTURE_TOLERANCE_MS) reasons.push('ts_in_future');
  }
  const web = withWebFields(ev, ctx.client ?? {}, text?.props ?? undefined, ctx.storeClientAddress === true);
  const props = web.props;
  const revenue = parseRevenue(props?.revenue);
  if (revenue.invalid) reasons.push('revenue_not_numeric');
  const anonymous = ev.anonymous_id ?? null;
  const user = ev.user_id ?? null;
  const kept = ctx.keptParams === undefined ? DEFAULT_KEPT : ctx.keptParams;
  const url = storedUrl(ev.url, kept);
  return {
    project_id: ctx.projectId,
    uuid: (ev.uuid ?? randomUUID()).toLowerCase(),
    ts,
    received_at: ctx.receivedAt,
    event: ev.event,
    distinct_id: (user ?? anonymous)!,
    anonymous_id: anonymous,
    user_id: user,
    session_id: ev.session_id ?? null,
    source: ctx.source,
    sdk_name: ctx.sdk?.name ?? null,
    sdk_version: ctx.sdk?.version ?? null,
    key_id: ctx.keyId,
    release: ev.release ?? null,
    url,
    path: pathOf(url),
    referrer: storedUrl(ev.referrer, kept),
    props: props ? jsonText(props, web.text) : null,
    revenue: revenue.revenue,
    elements: ev.elements ? jsonText(ev.elements, text?.elements ?? undefined) : null,
    invalid: reasons.length > 0,
    invalid_reasons: reasons.length > 0 ? reasons : null,
    props_value: props,
    ...elementColumns(ev.event, ev.elements),
  };
}

/** The row as event bus subscribers and events lists see it. */
export function committedEvent(row: EventRow): CommittedEvent {
  return {
    project_id: row.project_id,
    uuid: row.uuid,
    event: row.event,
    ts: row.ts.toISOString(),
    received_at: row.received_at.toISOString(),
    distinct_id: row.distinct_id,
    anonymous_id: row.anonymous_id,
    user_id: row.user_id,
    session_id: row.session_id,
    source: row.source,
    sdk_name: row.sdk_name,
    sdk_version: row.sdk_version,
    release: row.release,
    url: row.url,
    path: row.path,
    referrer: row.referrer,
    props: row.props_value,
    revenue: row.revenue,
    invalid: row.invalid,
    invalid_reasons: row.invalid_reasons ?? [],
  };
}

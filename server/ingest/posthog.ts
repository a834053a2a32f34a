// PostHog-compatible capture: what posthog-js, posthog-node and the other PostHog clients send to
// `/batch/`, `/capture/`, `/e/` and `/i/v0/e/`, read in any of their encodings (JSON, gzip by header
// or by `?compression=gzip-js`, a form field `data` in base64) and mapped onto pp's events, identify
// and alias (docs/ingestion.md#posthog-clients). The project is the one of the browser token or
// server key the payload names as `api_key` or `token`.

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Request } from 'express';
import { AppError, BadRequestError, PayloadTooLargeError, UnauthorizedError } from '../ground/errors.js';
import { BODY_LIMIT_BYTES } from '../http/errorHandler.js';
import { idText, type TrackEvent } from './eventSchema.js';
import { parseTracker, type SdkInfo } from './sdkInfo.js';
import { MAX_EVENTS_PER_REQUEST, TooManyEventsError, type IngestResult, type Refusal } from './track.js';

const gunzipAsync = promisify(gunzip);

/** The most a compressed body may inflate to: beyond it the request is refused, not read on. */
export const POSTHOG_INFLATED_MAX_BYTES = 10 * BODY_LIMIT_BYTES;

/** The capture paths the PostHog clients post to (with or without the trailing slash). */
export const POSTHOG_CAPTURE_PATHS = ['/batch', '/capture', '/e', '/i/v0/e', '/track'];
/** Feature-flag paths: pp has no flags, and says so, so the clients stay quiet. */
export const POSTHOG_FLAG_PATHS = ['/decide', '/flags'];
/** posthog-js reads its remote configuration here (JSON, or a script that sets it). */
export const POSTHOG_CONFIG_PATHS = ['/array/{token}/config', '/array/{token}/config.js'];

export interface BodyMeta {
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** `?compression=` of the request (posthog-js names its encoding there). */
  compression: string | undefined;
}

const GZIP_MAGIC = [0x1f, 0x8b];
const isGzip = (b: Buffer) => b.length > 2 && b[0] === GZIP_MAGIC[0] && b[1] === GZIP_MAGIC[1];

/**
 * The JSON a PostHog client sent, whatever its encoding. A Content-Encoding body was inflated by
 * the body reader already; `gzip-js` bodies (and any body that starts as gzip) are inflated here,
 * at most to POSTHOG_INFLATED_MAX_BYTES.
 */
export async function decodePosthogBody(raw: Buffer, meta: BodyMeta): Promise<unknown> {
  let bytes = raw;
  if (meta.compression === 'gzip-js' || meta.compression === 'gzip' || isGzip(bytes)) {
    try {
      bytes = await gunzipAsync(bytes, { maxOutputLength: POSTHOG_INFLATED_MAX_BYTES });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new PayloadTooLargeError(POSTHOG_INFLATED_MAX_BYTES);
      throw new BadRequestError('request body could not be decompressed');
    }
  }
  let text = bytes.toString('utf8');
  const form = (meta.contentType ?? '').startsWith('application/x-www-form-urlencoded') || text.startsWith('data=');
  if (form) {
    const data = new URLSearchParams(text).get('data');
    if (data === null) throw new BadRequestError('a form body carries its events in the field data');
    const trimmed = data.trimStart();
    text = trimmed.startsWith('{') || trimmed.startsWith('[') ? data : Buffer.from(data, 'base64').toString('utf8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError('request body is not valid JSON');
  }
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PosthogPayload {
  token: string;
  events: Json[];
}

/** The events of a payload and the one token they name; 401 without a token, 422 for anything not a list of events. */
export function payloadOf(body: unknown): PosthogPayload {
  const top = isObject(body) ? body : undefined;
  const events: unknown[] = Array.isArray(body) ? body : top && Array.isArray(top.batch) ? top.batch : top && Array.isArray(top.data) ? top.data : top ? [top] : [];
  if (events.length === 0) throw new AppError(422, 'validation_failed', 'the body holds no events: send an event, a list of events or {batch: [...]}', { field: 'batch' });
  if (events.length > MAX_EVENTS_PER_REQUEST) throw new TooManyEventsError(events.length);
  const tokenOf = (o: Json | undefined) => {
    const props = o && isObject(o.properties) ? o.properties : undefined;
    const t = o?.api_key ?? o?.token ?? props?.token;
    return typeof t === 'string' && t !== '' ? t : undefined;
  };
  const first = events.find(isObject);
  const token = tokenOf(top) ?? tokenOf(first);
  if (!token) throw new UnauthorizedError();
  return { token, events: events.map((e) => (isObject(e) ? e : { __not_an_object: true })) };
}

/** PostHog event names with a pp name of their own; any other name is kept as sent. */
const RENAMED: Record<string, string> = { $pageview: 'pp.page_view', $rageclick: 'pp.rage_click', $dead_click: 'pp.dead_click' };

/** Properties pp stores in columns of its own, or that only carry the client's bookkeeping. */
const LIFTED = new Set([
  'token',
  'distinct_id',
  '$current_url',
  '$referrer',
  '$session_id',
  '$device_id',
  '$set',
  '$set_once',
  '$anon_distinct_id',
  '$lib',
  '$lib_version',
  '$elements',
  '$elements_chain',
  '$time',
  '$insert_id',
  '$is_identified',
  'alias',
  '$event_type',
]);

/** What one PostHog event becomes: an event to store, identity work, or nothing (with why). */
export type Mapped =
  | { kind: 'event'; event: TrackEvent; traits?: { userId: string; set?: Json; setOnce?: Json } }
  | { kind: 'identify'; anonymousId: string | null; userId: string; set?: Json; setOnce?: Json }
  | { kind: 'alias'; previousId: string; userId: string }
  | { kind: 'skip' }
  | { kind: 'refuse'; refusal: Omit<Refusal, 'index'> };

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const anId = (v: unknown): string | undefined => (typeof v === 'number' && Number.isSafeInteger(v) ? idText(v) : text(v));

/** A PostHog `$elements` entry as pp's element: tag, id, classes, nth-child, text and attributes. */
function elementOf(e: unknown): Json {
  if (!isObject(e)) return {};
  const out: Json = {};
  if (text(e.tag_name)) out.tag = e.tag_name;
  const id = text(e.attr__id) ?? text(e.attr_id);
  if (id) out.id = id;
  const classes = Array.isArray(e.classes)
    ? e.classes.filter((c) => typeof c === 'string' && c !== '')
    : text(e.attr__class)
        ?.split(' ')
        .filter((c) => c !== '');
  if (classes && classes.length > 0) out.classes = classes;
  if (Number.isInteger(e.nth_child)) out.nth_child = e.nth_child;
  if (text(e.$el_text)) out.text = e.$el_text;
  const attributes: Json = {};
  const source = isObject(e.attributes) ? { ...e, ...e.attributes } : e;
  for (const [k, v] of Object.entries(source)) {
    if (!k.startsWith('attr__') || typeof v !== 'string') continue;
    const name = k.slice('attr__'.length);
    if (name !== 'id' && name !== 'class') attributes[name] = v;
  }
  if (Object.keys(attributes).length > 0) out.attributes = attributes;
  return out;
}

/** The event time: `timestamp`, else `$time` (epoch seconds), else the time of receipt (absent). */
function timeOf(e: Json, props: Json): string | undefined {
  const stamp = text(e.timestamp);
  const ms = stamp ? Date.parse(stamp) : Number.NaN;
  if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  const seconds = props.$time;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 && seconds < 8.64e12) return new Date(Math.round(seconds * 1000)).toISOString();
  return undefined;
}

/**
 * Who an event is: a browser client's `$device_id` is the anonymous id and a different
 * `distinct_id` the identified user; without a device id, `$is_identified: false` marks an
 * anonymous id, and otherwise the distinct id is taken as the user (server libraries send known users).
 */
function whoOf(distinctId: string, props: Json): { anonymous_id: string | null; user_id: string | null } {
  const device = anId(props.$device_id);
  if (device && device !== distinctId) return { anonymous_id: device, user_id: distinctId };
  if (device || props.$is_identified === false) return { anonymous_id: distinctId, user_id: null };
  return { anonymous_id: null, user_id: distinctId };
}

export function mapPosthogEvent(e: Json): Mapped {
  if (e.__not_an_object) return { kind: 'refuse', refusal: { code: 'invalid_event', message: 'an event must be a JSON object' } };
  const name = text(e.event);
  if (!name) return { kind: 'refuse', refusal: { code: 'event_required', message: 'event name is required' } };
  const props: Json = isObject(e.properties) ? e.properties : {};
  const distinctId = anId(e.distinct_id) ?? anId(props.distinct_id) ?? anId(e.$distinct_id);
  if (!distinctId) return { kind: 'refuse', refusal: { code: 'identity_required', message: 'distinct_id is required' } };
  const set = isObject(props.$set) ? props.$set : isObject(e.$set) ? e.$set : undefined;
  const setOnce = isObject(props.$set_once) ? props.$set_once : isObject(e.$set_once) ? e.$set_once : undefined;

  if (name === '$identify') {
    const anonymous = anId(props.$anon_distinct_id) ?? null;
    return { kind: 'identify', anonymousId: anonymous === distinctId ? null : anonymous, userId: distinctId, set, setOnce };
  }
  if (name === '$create_alias') {
    const alias = anId(props.alias) ?? anId(e.alias);
    if (!alias) return { kind: 'refuse', refusal: { code: 'invalid_field', message: '$create_alias needs properties.alias' } };
    return { kind: 'alias', previousId: alias, userId: distinctId };
  }
  // Groups have no place in pp's model.
  if (name === '$groupidentify') return { kind: 'skip' };

  let event = RENAMED[name] ?? name;
  const kept: Json = {};
  for (const [k, v] of Object.entries(props)) if (!LIFTED.has(k)) kept[k] = v;
  let elements: Json[] | undefined;
  if (name === '$autocapture') {
    const type = props.$event_type;
    if (type === 'click') event = 'pp.click';
    else if (type === 'submit') event = 'pp.form_submit';
    if (type !== undefined) kept.event_type = type;
    if (Array.isArray(props.$elements)) elements = props.$elements.slice(0, 50).map(elementOf);
  }
  if (name === '$pageleave' && typeof props.$prev_pageview_max_scroll_percentage === 'number') {
    event = 'pp.scroll_depth';
    kept.percent = Math.round(Math.min(1, Math.max(0, props.$prev_pageview_max_scroll_percentage)) * 100);
    if (typeof props.$prev_pageview_max_scroll === 'number') kept.pixels = props.$prev_pageview_max_scroll;
  }
  const referrer = text(props.$referrer);
  const uuid = text(e.uuid);
  const who = whoOf(distinctId, props);
  const ts = timeOf(e, props);
  const out: TrackEvent = {
    event,
    ...(uuid ? { uuid } : {}),
    ...(ts ? { ts } : {}),
    ...who,
    session_id: anId(props.$session_id) ?? null,
    url: text(props.$current_url) ?? null,
    referrer: referrer && referrer !== '$direct' ? referrer : null,
    props: Object.keys(kept).length > 0 ? kept : null,
    ...(elements ? { elements } : {}),
  };
  const traits = who.user_id && (set || setOnce) ? { userId: who.user_id, set, setOnce } : undefined;
  return { kind: 'event', event: out, ...(traits ? { traits } : {}) };
}

/** The client's name and version, from `$lib` and `$lib_version` of the first event that has them. */
export function posthogSdk(events: Json[]): SdkInfo | null {
  for (const e of events) {
    const props = isObject(e.properties) ? e.properties : {};
    const name = text(props.$lib) ?? text(e.library);
    const version = text(props.$lib_version) ?? text(e.library_version);
    // Held to the shape /v1 takes in X-PP-Tracker.
    const sdk = name && version ? parseTracker(`${name}/${version}`) : undefined;
    if (sdk) return sdk;
  }
  return null;
}

/** The answer PostHog's capture endpoint gives (`status: 1`), with pp's count and refusals. */
export function captureAnswer(result: IngestResult): Json {
  return { status: 1, accepted: result.accepted, rejected: result.rejected };
}

/** The metadata of a request's body for decodePosthogBody. */
export function bodyMeta(req: Request): BodyMeta {
  const compression = req.query.compression;
  return { contentType: req.get('content-type'), contentEncoding: req.get('content-encoding'), compression: typeof compression === 'string' ? compression : undefined };
}

/**
 * The remote configuration posthog-js asks for at start: no flags (so it does not ask for them), no
 * recording, surveys or heatmaps, element chains as lists (pp reads `$elements`), the encodings pp reads.
 */
export function remoteConfig(token: string): Json {
  return {
    token,
    supportedCompression: ['gzip', 'gzip-js'],
    hasFeatureFlags: false,
    sessionRecording: false,
    // No `surveys`, `heatmaps` or `productTours` key: with any value posthog-js fetches their scripts.
    captureDeadClicks: false,
    capturePerformance: false,
    autocaptureExceptions: false,
    autocapture_opt_out: false,
    elementsChainAsString: false,
    siteApps: [],
  };
}

/** The script form: the same configuration, set where posthog-js looks for it. */
export function remoteConfigScript(token: string): string {
  const key = JSON.stringify(token);
  return `(window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {})[${key}] = { config: ${JSON.stringify(remoteConfig(token))}, siteApps: [] };\n`;
}

/** What `/decide/` and `/flags/` answer: no flags, no recording; the encodings pp reads. */
export function noFlags(): Json {
  return {
    flags: {},
    featureFlags: {},
    featureFlagPayloads: {},
    errorsWhileComputingFlags: false,
    sessionRecording: false,
    supportedCompression: ['gzip', 'gzip-js'],
    autocapture_opt_out: false,
    capturePerformance: false,
    siteApps: [],
    config: { enable_collect_everything: true },
  };
}

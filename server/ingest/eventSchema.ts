// The shape of one tracked event and its check. An event that fails it is a hard defect: it is
// refused in `rejected[]` with a code, and the rest of its request is still stored.

import { Ajv2020 } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../http/openapi.js';
import { addTimeFormats, problems } from '../http/validation.js';

export const ID_MAX = 200;
export const URL_MAX = 4096;
export const PROPS_MAX_BYTES = 64 * 1024;
export const ELEMENTS_MAX_BYTES = 64 * 1024;
export const JSON_MAX_DEPTH = 16;
/**
 * The event times every query can reach: a query's local dates run from 1970-01-01 to 2999-12-31 in
 * the project's zone, and zones lie within a day of UTC. `ts` must be from TS_FIRST and before TS_END.
 */
export const TS_FIRST = '1970-01-02T00:00:00.000Z';
export const TS_END = '2999-12-31T00:00:00.000Z';
const TS_FIRST_MS = Date.parse(TS_FIRST);
const TS_END_MS = Date.parse(TS_END);

const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * An id: text, or a whole number (many systems number their users), which is stored as its decimal
 * string, so `42` and `"42"` are the same id. Only numbers JSON carries exactly are taken.
 */
export const idSchema = (nullable: boolean): JsonSchema => ({
  type: nullable ? ['string', 'integer', 'null'] : ['string', 'integer'],
  minLength: 1,
  maxLength: ID_MAX,
  minimum: -Number.MAX_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  description: `text (1–${ID_MAX} characters) or a whole number, stored as its decimal string`,
});

/** An id as stored: a number as its decimal string. */
export function idText<T extends string | number | null | undefined>(value: T): T extends number ? string : T {
  return (typeof value === 'number' ? String(value) : value) as T extends number ? string : T;
}

const id = idSchema(true);

/** The field by which a server key re-admits the ids of a deleted person (docs/privacy.md). */
export const CONSENT_SCHEMA: JsonSchema = {
  type: 'boolean',
  description: 'true, sent with a server key: the person agreed again, so ids refused after their deletion are accepted (and no longer refused); ignored otherwise',
};
const text = (max: number) => ({ type: ['string', 'null'], maxLength: max });

export const TRACK_EVENT_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['event'],
  description: 'One event. `anonymous_id` or `user_id` is required; a missing `ts` is the time of receipt; `uuid` makes re-sends idempotent.',
  properties: {
    event: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S', description: 'event name, e.g. pp.page_view or signup' },
    // A plain pattern, not format "uuid": that also admits a urn:uuid: prefix, which DuckDB's UUID type does not read.
    uuid: { type: 'string', pattern: UUID_PATTERN, description: 'client-chosen id (8-4-4-4-12 hex digits); an event whose uuid is already stored for the project is not stored again' },
    ts: {
      type: 'string',
      format: 'date-time',
      maxLength: 64,
      description: `client time (RFC 3339, from ${TS_FIRST} and before ${TS_END}); more than an hour ahead of the server it is stored but marked invalid`,
    },
    anonymous_id: id,
    user_id: id,
    session_id: id,
    url: text(URL_MAX),
    referrer: text(URL_MAX),
    release: { type: ['string', 'null'], minLength: 1, maxLength: 200, description: 'the release of the sending application' },
    props: { type: ['object', 'null'], description: `event properties (JSON, at most ${PROPS_MAX_BYTES} bytes, ${JSON_MAX_DEPTH} levels); props.revenue is read as a signed number` },
    elements: { type: ['array', 'null'], maxItems: 50, items: { type: 'object' }, description: 'autocaptured element chain, target first' },
    consent: CONSENT_SCHEMA,
  },
};

export interface TrackEvent {
  event: string;
  uuid?: string;
  ts?: string;
  anonymous_id?: string | null;
  user_id?: string | null;
  session_id?: string | null;
  url?: string | null;
  referrer?: string | null;
  release?: string | null;
  props?: Record<string, unknown> | null;
  elements?: Array<Record<string, unknown>> | null;
  consent?: boolean;
}

export interface EventDefect {
  code: 'invalid_event' | 'event_required' | 'identity_required' | 'invalid_field' | 'too_large';
  message: string;
}

const ajv = new Ajv2020({ allErrors: false, strict: false, validateSchema: false, verbose: true });
addTimeFormats(ajv);
const validate = ajv.compile(TRACK_EVENT_SCHEMA);

/** Depth of nested objects/arrays, counted without recursion (hostile input may nest deeply). */
function depthExceeds(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    for (const child of Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return false;
}

function tsInRange(ts: string): boolean {
  const ms = Date.parse(ts);
  return ms >= TS_FIRST_MS && ms < TS_END_MS;
}

function depthDefect(field: string, value: unknown): EventDefect | undefined {
  if (value === undefined || value === null || !depthExceeds(value, JSON_MAX_DEPTH)) return undefined;
  return { code: 'invalid_field', message: `${field} is nested more than ${JSON_MAX_DEPTH} levels deep` };
}

/** A JSON value over the depth or byte limit; messages name the field only. `text` is its JSON.stringify, when known. */
export function sizeDefect(field: string, value: unknown, maxBytes: number, text?: string): EventDefect | undefined {
  if (value === undefined || value === null) return undefined;
  const tooDeep = depthDefect(field, value);
  if (tooDeep) return tooDeep;
  if (Buffer.byteLength(text ?? JSON.stringify(value)) > maxBytes) return { code: 'too_large', message: `${field} is larger than ${maxBytes} bytes` };
  return undefined;
}

/** The JSON.stringify of an event's props and elements, so that they are serialized once. */
export interface EventJsonText {
  props: string | null;
  elements: string | null;
}

export interface CheckedEvent {
  event: TrackEvent;
  text: EventJsonText;
}

/** The event if it has no hard defect, else the defect. Messages name fields, never values. */
export function checkEvent(item: unknown): CheckedEvent | { defect: EventDefect } {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return { defect: { code: 'invalid_event', message: 'an event must be a JSON object' } };
  if (!validate(item)) {
    const err = validate.errors![0]!;
    const missing = err.keyword === 'required' || (err.instancePath === '/event' && (err.keyword === 'minLength' || err.keyword === 'pattern'));
    if (missing) return { defect: { code: 'event_required', message: 'event name is required' } };
    if (err.instancePath === '/uuid') return { defect: { code: 'invalid_field', message: 'uuid must be a UUID (8-4-4-4-12 hex digits)' } };
    const [first] = problems(validate.errors);
    return { defect: { code: 'invalid_field', message: `${first!.field} ${first!.message}` } };
  }
  const sent = item as TrackEvent & { anonymous_id?: string | number | null; user_id?: string | number | null; session_id?: string | number | null };
  const numbered = typeof sent.anonymous_id === 'number' || typeof sent.user_id === 'number' || typeof sent.session_id === 'number';
  const event: TrackEvent = numbered ? { ...sent, anonymous_id: idText(sent.anonymous_id), user_id: idText(sent.user_id), session_id: idText(sent.session_id) } : sent;
  if (!event.anonymous_id && !event.user_id) return { defect: { code: 'identity_required', message: 'anonymous_id or user_id is required' } };
  if (event.ts !== undefined && !tsInRange(event.ts)) return { defect: { code: 'invalid_field', message: `ts must be from ${TS_FIRST} and before ${TS_END}` } };
  // Depth first: serializing a value nested thousands of levels deep would exhaust the stack.
  const tooDeep = depthDefect('props', event.props) ?? depthDefect('elements', event.elements);
  if (tooDeep) return { defect: tooDeep };
  const text = { props: event.props ? JSON.stringify(event.props) : null, elements: event.elements ? JSON.stringify(event.elements) : null };
  const defect = sizeDefect('props', event.props, PROPS_MAX_BYTES, text.props ?? undefined) ?? sizeDefect('elements', event.elements, ELEMENTS_MAX_BYTES, text.elements ?? undefined);
  return defect ? { defect } : { event, text };
}

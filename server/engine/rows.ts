// pp's own shape of what ingestion stores, column by column: an event and a refused attempt, as the
// ingest writer builds them and every engine's appender (engine.ts, `EventAppender`) takes them.

/** The element columns of a pp.click or pp.form_submit event (elementEncoding.ts): one list entry per element of the chain, target first. */
export interface ElementColumns {
  el_tags: Array<string | null>;
  el_ids: Array<string | null>;
  el_classes: Array<string | null>;
  el_nth: Array<number | null>;
  el_attrs: string[];
  el_text: string | null;
}

/** A row of `events`. Properties that are not columns are ignored by the appenders. */
export interface StoredEvent extends Partial<ElementColumns> {
  project_id: number;
  /** Canonical text (lower case, 8-4-4-4-12). */
  uuid: string;
  ts: Date;
  received_at: Date;
  event: string;
  distinct_id: string;
  anonymous_id: string | null;
  user_id: string | null;
  session_id: string | null;
  source: string;
  sdk_name: string | null;
  sdk_version: string | null;
  /** The ingestion key that sent the event; null for imported events. */
  key_id: string | null;
  release: string | null;
  url: string | null;
  path: string | null;
  referrer: string | null;
  /** JSON text, as stored. */
  props: string | null;
  revenue: number | null;
  elements: string | null;
  invalid: boolean;
  /** NULL when there is no soft defect: appending an empty list costs more than the rest of the row. */
  invalid_reasons: string[] | null;
  /** A labeled event's rule and the event it labels (server/labeled/derive.ts); absent otherwise. */
  rule_id?: number;
  source_uuid?: string;
  /** distinctKey(distinct_id), set by the writer as it appends the row (not journaled). */
  distinct_key?: bigint;
}

/** A row of `ingest_rejections`: a refused attempt, sanitized (server/ingest/rejections.ts). */
export interface StoredRejection {
  project_id: number;
  received_at: Date;
  request_id: string;
  event_index: number | null;
  operation: string;
  key_id: string;
  source: string;
  sdk_name: string | null;
  sdk_version: string | null;
  event: string | null;
  code: string;
  message: string;
}

/** The stored fields of an event as pp's export writes them and its import reads them, in the export's column order. */
export const STORED_FIELDS = [
  'uuid',
  'ts',
  'received_at',
  'event',
  'distinct_id',
  'anonymous_id',
  'user_id',
  'session_id',
  'source',
  'sdk_name',
  'sdk_version',
  'key_id',
  'release',
  'url',
  'path',
  'referrer',
  'props',
  'revenue',
  'elements',
  'invalid',
  'invalid_reasons',
  'rule_id',
  'source_uuid',
] as const;

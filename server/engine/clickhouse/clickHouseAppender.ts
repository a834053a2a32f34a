// How ClickHouse stores what ingestion appends (engine.ts, `EventAppender`). ClickHouse has no
// transactions, so "all or none" becomes "once, whatever happens": a batch is checked whole before
// anything is sent (a bad row stores nothing), its events not held already go in one INSERT, its
// refused attempts in another, and the journal position last. A batch cut short (a crash, a
// timeout, a node lost) is loaded again from the journal: the events it stored already are found
// by uuid and left out, and a row that slipped through twice anyway (the timed-out INSERT that
// landed after all) shares its sorting key with the first, ending in the uuid, and collapses into
// it when parts merge (ReplacingMergeTree; reads that cannot wait ask for FINAL). Only a batch that
// may have been stored before is looked for: the ingest writer marks the others `firstAttempt`
// (journal records past the replay at start and past every failed load), whose events no earlier
// INSERT can hold; the look-up reads the project's events, a cost that grows with the table.
//
// Events go as JSONEachRow after the statement, in large groups (`groupRows`): ClickHouse makes a
// part of each INSERT (per month of event time), and merging many small parts costs it more than
// reading the rows.
//
// On a cluster the INSERTs go through the Distributed tables synchronously (insert_distributed_sync):
// an answer means every shard has its rows; with replicas, on two of them (insert_quorum), so the
// journal forgets a batch only once two machines hold it, and any replica read next has it.

import type { AppendBatch, EngineConnection, EventAppender, KeyChunk } from '../engine.js';
import type { StoredEvent, StoredRejection } from '../rows.js';
import { QUORUM_WRITE } from './connection.js';
import { clickHouse } from './engineConnection.js';
import { dateTimeText, literal, sql, tuple } from './literal.js';
import { propertyColumns } from './properties.js';

const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function uuidText(text: string): string {
  if (!CANONICAL_UUID.test(text)) throw new Error(`not a canonical uuid: ${JSON.stringify(text.slice(0, 64))}`);
  return text;
}

/** An instant as two columns: the DateTime text (UTC) and the microseconds within its second. */
function instant(d: Date): [string, number] {
  const ms = d.getTime();
  const within = ((ms % 1000) + 1000) % 1000;
  // A group's events share a few seconds of receipt: the text of the last one is kept.
  if (ms - within !== lastSecond.at) lastSecond = { at: ms - within, text: dateTimeText(d) };
  return [lastSecond.text, within * 1000];
}

let lastSecond = { at: Number.NaN, text: '' };

/** A double as ClickHouse reads it: refused when it has no text 18.16 reads (as `literal` refuses it). */
function double(value: number | null): number | null {
  if (value !== null) literal(value);
  return value;
}

/**
 * An event as a line of JSONEachRow: JSON.stringify writes every string escaped as JSON (a quote, a
 * backslash and every control character, NUL included, escaped; other characters as they are), which
 * ClickHouse's row reader reads back byte for byte; 64-bit integers go as JSON strings, which it reads
 * into its integer columns. A lone surrogate has no UTF-8 form: JSON.stringify writes it as a \uD8xx
 * escape, so a line holding one is written again with each such character made U+FFFD, as the
 * statement text of `literal` makes it.
 */
function eventLine(e: StoredEvent): string {
  if (e.distinct_key === undefined) throw new Error(`event ${e.uuid} has no distinct_key`);
  const [ts, tsUs] = instant(e.ts);
  const [received, receivedUs] = instant(e.received_at);
  const props = propertyColumns(e.props);
  const row = {
    project_id: e.project_id,
    uuid: uuidText(e.uuid),
    ts,
    ts_us: tsUs,
    received_at: received,
    received_us: receivedUs,
    event: e.event,
    distinct_id: e.distinct_id,
    distinct_key: e.distinct_key.toString(),
    anonymous_id: e.anonymous_id,
    user_id: e.user_id,
    session_id: e.session_id,
    source: e.source,
    sdk_name: e.sdk_name,
    sdk_version: e.sdk_version,
    // `key_id` is a String on ClickHouse (0001): an imported event, which no key sent, holds ''
    // (no key's id is empty), read back as NULL.
    key_id: e.key_id ?? '',
    release: e.release,
    url: e.url,
    path: e.path,
    referrer: e.referrer,
    props: e.props,
    revenue: double(e.revenue),
    elements: e.elements,
    invalid: e.invalid ? 1 : 0,
    invalid_reasons: e.invalid_reasons ?? [],
    rule_id: e.rule_id ?? null,
    source_uuid: e.source_uuid === undefined ? null : uuidText(e.source_uuid),
    el_tags: e.el_tags ?? [],
    el_ids: e.el_ids ?? [],
    el_classes: e.el_classes ?? [],
    el_nth: e.el_nth ?? [],
    el_attrs: e.el_attrs ?? [],
    el_text: e.el_text ?? null,
    prop_keys: props.keys,
    prop_values: props.values,
    prop_numbers: props.numbers.map((n) => (n === null ? null : n.toString())),
    prop_kinds: props.kinds,
  };
  const line = JSON.stringify(row);
  return line.includes('\\ud') || line.includes('\\uD') ? JSON.stringify(row, (_key, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value)) : line;
}

/** `s` with each lone surrogate made U+FFFD. */
function wellFormed(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const low = s.charCodeAt(i + 1);
    if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      i++;
      continue;
    }
    out += `${s.slice(from, i)}\ufffd`;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const EVENT_COLUMNS =
  'project_id, uuid, ts, ts_us, received_at, received_us, event, distinct_id, distinct_key, anonymous_id, user_id, session_id, source, sdk_name, sdk_version, key_id, release, url, path, referrer, props, revenue, elements, invalid, invalid_reasons, rule_id, source_uuid, el_tags, el_ids, el_classes, el_nth, el_attrs, el_text, prop_keys, prop_values, prop_numbers, prop_kinds';

function rejectionRow(r: StoredRejection): string {
  const [received, receivedUs] = instant(r.received_at);
  return tuple([r.project_id, received, receivedUs, r.request_id, r.event_index, r.operation, r.key_id, r.source, r.sdk_name, r.sdk_version, r.event, r.code, r.message]);
}

const REJECTION_COLUMNS = 'project_id, received_at, received_us, request_id, event_index, operation, key_id, source, sdk_name, sdk_version, event, code, message';

/** A received instant in µs as a condition on the two columns (the DateTime bound first, for the index). */
function receivedFrom(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  return `received_at >= toDateTime(${seconds}) AND toUInt64(received_at) * 1000000 + received_us >= ${literal(Math.floor(us))}`;
}

function receivedBefore(us: number): string {
  const seconds = Math.ceil(us / 1_000_000);
  return `received_at <= toDateTime(${seconds}) AND toUInt64(received_at) * 1000000 + received_us < ${literal(Math.ceil(us))}`;
}

/** The uuids as a set ClickHouse compares a UUID column with (a column read as text is aliased otherwise: an alias shadows the column everywhere in the statement). */
function uuidSet(uuids: readonly string[]): string {
  return `(SELECT toUUID(arrayJoin(${literal(uuids.map(uuidText))})))`;
}

/** Uuids per look-up: a statement's text (not an INSERT's data) must stay under max_query_size (256 KiB). */
const UUIDS_PER_STATEMENT = 2000;

async function inSlices<T>(uuids: readonly string[], read: (slice: readonly string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let at = 0; at < uuids.length; at += UUIDS_PER_STATEMENT) out.push(...(await read(uuids.slice(at, at + UUIDS_PER_STATEMENT))));
  return out;
}

export interface AppenderOptions {
  /** The shards' replicas (1 on one node or without replicas). */
  replicas: number;
}

/** The events of one append as the ingest writer groups them: a large block per INSERT. */
export const CLICKHOUSE_GROUP_ROWS = 25_000;

export class ClickHouseAppender implements EventAppender {
  private readonly settings: Record<string, number>;
  readonly groupRows = CLICKHOUSE_GROUP_ROWS;

  constructor(options: AppenderOptions) {
    this.settings = { insert_distributed_sync: 1, ...(options.replicas > 1 ? QUORUM_WRITE : {}) };
  }

  async append(conn: EngineConnection, batch: AppendBatch): Promise<void> {
    const ch = clickHouse(conn);
    // Everything is written out first: a row that cannot be stored fails the batch before anything is sent.
    const events = batch.events.map((e) => ({ uuid: e.uuid, project: e.project_id, line: eventLine(e) }));
    const rejections = batch.rejections.map(rejectionRow);
    if (events.length > 0) {
      // Only a batch that may have been stored before (loaded again) is looked for.
      const held = new Set<string>();
      if (!batch.firstAttempt) {
        for (const project of new Set(events.map((e) => e.project))) {
          for (const uuid of await this.heldUuids(
            conn,
            project,
            events.filter((e) => e.project === project).map((e) => e.uuid),
          ))
            held.add(`${project}/${uuid}`);
        }
      }
      const fresh = held.size === 0 ? events : events.filter((e) => !held.has(`${e.project}/${e.uuid}`));
      if (fresh.length > 0) {
        // The rows follow the statement in the request's body: ClickHouse's SQL parser reads only the
        // statement, its JSONEachRow reader the rows.
        await ch.command(`INSERT INTO events (${EVENT_COLUMNS}) FORMAT JSONEachRow\n${fresh.map((e) => e.line).join('\n')}`, { settings: this.settings });
      }
    }
    if (rejections.length > 0) await ch.command(`INSERT INTO ingest_rejections (${REJECTION_COLUMNS}) VALUES ${rejections.join(',')}`, { settings: this.settings });
    if (batch.journalPosition !== undefined) {
      await ch.command(sql`INSERT INTO ingest_journal (position, loaded_at) VALUES (${BigInt(batch.journalPosition)}, ${dateTimeText(new Date())})`);
    }
  }

  async journalPosition(conn: EngineConnection): Promise<number> {
    const [row] = await clickHouse(conn).query<{ position: string }>('SELECT max(position) AS position FROM ingest_journal');
    return Number(row?.position ?? 0);
  }

  async storedPairs(conn: EngineConnection, uuids: readonly string[], fromUs: number, beforeUs: number): Promise<string[]> {
    if (uuids.length === 0) return [];
    const rows = await inSlices(uuids, (slice) =>
      clickHouse(conn).query<{ project_id: number; id: string }>(
        `SELECT DISTINCT project_id, toString(uuid) AS id FROM events
          WHERE ${receivedFrom(fromUs)} ${Number.isFinite(beforeUs) ? `AND ${receivedBefore(beforeUs)}` : ''} AND uuid IN ${uuidSet(slice)}`,
      ),
    );
    return rows.map((r) => `${Number(r.project_id)}/${r.id}`);
  }

  async recentKeys(conn: EngineConnection, sinceUs: number, limit: number, take: (chunk: KeyChunk) => void): Promise<void> {
    const rows = await clickHouse(conn).query<{ project_id: number; id: string; us: string }>(
      `SELECT project_id, toString(uuid) AS id, toString(toUInt64(received_at) * 1000000 + received_us) AS us FROM events
        WHERE ${receivedFrom(sinceUs)} ORDER BY toUInt64(received_at) * 1000000 + received_us DESC LIMIT ${literal(limit)}`,
    );
    rows.reverse();
    const CHUNK = 8192;
    for (let at = 0; at < rows.length; at += CHUNK) {
      const part = rows.slice(at, at + CHUNK);
      const words = [0, 1, 2, 3].map(() => new Uint32Array(part.length)) as [Uint32Array, Uint32Array, Uint32Array, Uint32Array];
      const projects = new Uint32Array(part.length);
      const receivedUs = new Float64Array(part.length);
      part.forEach((r, i) => {
        const hex = r.id.replaceAll('-', '');
        for (let w = 0; w < 4; w++) words[w]![i] = Number.parseInt(hex.slice(w * 8, w * 8 + 8), 16);
        projects[i] = Number(r.project_id);
        receivedUs[i] = Number(r.us);
      });
      take({ count: part.length, projects, words, receivedUs });
    }
  }

  async heldUuids(conn: EngineConnection, projectId: number, uuids: readonly string[]): Promise<Set<string>> {
    if (uuids.length === 0) return new Set();
    const rows = await inSlices(uuids, (slice) =>
      clickHouse(conn).query<{ id: string }>(`SELECT DISTINCT toString(uuid) AS id FROM events WHERE project_id = ${literal(projectId)} AND uuid IN ${uuidSet(slice)}`),
    );
    return new Set(rows.map((r) => r.id));
  }
}

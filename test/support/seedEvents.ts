// Writes events and identity links straight into the real DuckDB tables through the server's writer
// connection, normalized the way ingestion stores them (distinct_id, path, revenue from
// props.revenue). The input mirrors the ingestion payload so tests can move to HTTP ingest unchanged.
// On a ClickHouse server the events go through its appender and the links into its
// identity_links, as new rows of a larger version.

import { randomUUID } from 'node:crypto';
import type { DuckDBValue } from '@duckdb/node-api';
import type { TestServer } from './testServer.js';
import { ELEMENT_COLUMNS, elementColumnsSql } from '../../server/ingest/elementColumns.js';
import { pathOf } from '../../server/ingest/normalizeEvent.js';
import { elementColumns } from '../../server/ingest/elementColumns.js';
import { distinctKey } from '../../server/ingest/distinctKey.js';
import { dateTimeText, literal, tuple } from '../../server/engine/clickhouse/literal.js';
import type { StoredEvent as EngineRow } from '../../server/engine/rows.js';

export interface SeedEvent {
  event: string;
  ts: string | Date;
  uuid?: string;
  anonymous_id?: string;
  user_id?: string;
  session_id?: string;
  url?: string;
  referrer?: string;
  props?: Record<string, unknown>;
  /** The element chain of element events (target first). */
  elements?: Record<string, unknown>[];
  source?: string;
  sdk_name?: string;
  release?: string;
}

/** An event as stored, which is what reference implementations compute from. */
export interface StoredEvent {
  uuid: string;
  ts: Date;
  event: string;
  distinct_id: string;
  anonymous_id: string | null;
  user_id: string | null;
  session_id: string | null;
  source: string;
  sdk_name: string | null;
  release: string | null;
  url: string | null;
  path: string | null;
  referrer: string | null;
  props: Record<string, unknown>;
  elements: Record<string, unknown>[] | null;
  revenue: number | null;
}

const COLUMNS = [
  'project_id',
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
  'release',
  'url',
  'path',
  'referrer',
  'props',
  'elements',
  'revenue',
] as const;
const CASTS: Partial<Record<(typeof COLUMNS)[number], string>> = { uuid: 'UUID', ts: 'TIMESTAMPTZ', received_at: 'TIMESTAMPTZ', props: 'JSON', elements: 'JSON' };
const ROWS_PER_INSERT = 100;

export function normalizeEvent(e: SeedEvent): StoredEvent {
  const distinct = e.user_id ?? e.anonymous_id;
  if (!distinct) throw new Error(`seed event ${e.event} needs a user_id or an anonymous_id`);
  const props = e.props ?? {};
  const revenue = typeof props.revenue === 'number' && Number.isFinite(props.revenue) ? props.revenue : null;
  const path = pathOf(e.url ?? null);
  return {
    uuid: e.uuid ?? randomUUID(),
    ts: new Date(e.ts),
    event: e.event,
    distinct_id: distinct,
    anonymous_id: e.anonymous_id ?? null,
    user_id: e.user_id ?? null,
    session_id: e.session_id ?? null,
    source: e.source ?? 'server',
    sdk_name: e.sdk_name ?? null,
    release: e.release ?? null,
    url: e.url ?? null,
    path,
    referrer: e.referrer ?? null,
    props,
    elements: e.elements ?? null,
    revenue,
  };
}

/** Stores the events of one project (labeled events are not derived) and returns them as stored. */
export async function seedEvents(server: TestServer, projectId: number, events: SeedEvent[]): Promise<StoredEvent[]> {
  const stored = events.map(normalizeEvent);
  if (server.running.services.events.kind === 'clickhouse') {
    await appendEvents(server, projectId, stored);
    return stored;
  }
  const receivedAt = server.clock.now().toISOString();
  for (let i = 0; i < stored.length; i += ROWS_PER_INSERT) {
    const chunk = stored.slice(i, i + ROWS_PER_INSERT);
    const params: DuckDBValue[] = [];
    const rows = chunk.map((e) => {
      const values: Record<(typeof COLUMNS)[number], DuckDBValue> = {
        project_id: projectId,
        uuid: e.uuid,
        ts: e.ts.toISOString(),
        received_at: receivedAt,
        event: e.event,
        distinct_id: e.distinct_id,
        anonymous_id: e.anonymous_id,
        user_id: e.user_id,
        session_id: e.session_id,
        source: e.source,
        sdk_name: e.sdk_name,
        release: e.release,
        url: e.url,
        path: e.path,
        referrer: e.referrer,
        props: JSON.stringify(e.props),
        elements: e.elements === null ? null : JSON.stringify(e.elements),
        revenue: e.revenue,
      };
      const placeholders = COLUMNS.map((c) => {
        params.push(values[c]);
        const cast = CASTS[c];
        return cast ? `CAST($${params.length} AS ${cast})` : `$${params.length}`;
      });
      return `(${placeholders.join(', ')})`;
    });
    await server.running.services.events.write(
      // The element columns ingestion fills for clicks and form submits, here from the migration's macros.
      `INSERT INTO events (${COLUMNS.join(', ')}, distinct_key, ${ELEMENT_COLUMNS.join(', ')})
       SELECT *, md5_number_lower(distinct_id), ${elementColumnsSql('event', 'elements').join(', ')}
       FROM (VALUES ${rows.join(', ')}) v(${COLUMNS.join(', ')})`,
      params,
    );
  }
  return stored;
}

/** The events as the engine's appender stores them (on ClickHouse). */
async function appendEvents(server: TestServer, projectId: number, stored: StoredEvent[]): Promise<void> {
  const engine = server.running.services.events;
  const receivedAt = server.clock.now();
  const rows = stored.map(
    (e): EngineRow => ({
      project_id: projectId,
      uuid: e.uuid,
      ts: e.ts,
      received_at: receivedAt,
      event: e.event,
      distinct_id: e.distinct_id,
      distinct_key: distinctKey(e.distinct_id),
      anonymous_id: e.anonymous_id,
      user_id: e.user_id,
      session_id: e.session_id,
      source: e.source,
      sdk_name: e.sdk_name,
      sdk_version: null,
      key_id: '',
      release: e.release,
      url: e.url,
      path: e.path,
      referrer: e.referrer,
      props: JSON.stringify(e.props),
      revenue: e.revenue,
      elements: e.elements === null ? null : JSON.stringify(e.elements),
      invalid: false,
      invalid_reasons: null,
      ...elementColumns(e.event, e.elements),
    }),
  );
  await engine.useWriter((conn) => engine.appender.append(conn, { events: rows, rejections: [] }));
  engine.changed([projectId]);
}

/** Versions of ClickHouse identity links: each new row outranks every earlier one. */
let linkVersion = 0;

async function seedIdentityClickHouse(server: TestServer, projectId: number, distinctId: string, actorId: string): Promise<void> {
  const db = server.running.services.events;
  // The project's links, filtered here: a condition on a column outside the sorting key could be
  // applied before FINAL keeps the latest row of each key.
  const links = await db.read(`SELECT distinct_id, actor_id FROM identity_links FINAL WHERE project_id = ${literal(projectId)}`);
  const final = String(links.find((l) => l.distinct_id === actorId)?.actor_id ?? actorId);
  if (final === distinctId) return;
  const moved = [distinctId, ...links.filter((l) => l.actor_id === distinctId).map((l) => String(l.distinct_id))];
  const at = dateTimeText(server.clock.now());
  await db.write(
    `INSERT INTO identity_links (project_id, distinct_key, distinct_id, actor_key, actor_id, linked_at, linked_us, version) VALUES ${moved
      .map((d) => tuple([projectId, distinctKey(d), d, distinctKey(final), final, at, 0, ++linkVersion]))
      .join(', ')}`,
  );
  db.changed([projectId]);
}

/**
 * Links a distinct id to an actor, keeping links transitively resolved as ingestion does: if the
 * actor is itself linked, the link points at its final actor, and links to the distinct id follow.
 */
export async function seedIdentity(server: TestServer, projectId: number, distinctId: string, actorId: string): Promise<void> {
  const db = server.running.services.events;
  if (db.kind === 'clickhouse') return seedIdentityClickHouse(server, projectId, distinctId, actorId);
  const rows = await db.read('SELECT actor_id FROM identity_links WHERE project_id = $1 AND distinct_id = $2', [projectId, actorId]);
  const final = rows.length > 0 ? String(rows[0]!.actor_id) : actorId;
  if (final === distinctId) return;
  const now = server.clock.now().toISOString();
  await db.write(
    `INSERT INTO identity_links (project_id, distinct_id, actor_id, linked_at, distinct_key, actor_key)
     VALUES ($1, $2, $3, CAST($4 AS TIMESTAMPTZ), md5_number_lower($2), md5_number_lower($3))
     ON CONFLICT (project_id, distinct_id) DO UPDATE SET actor_id = excluded.actor_id, actor_key = excluded.actor_key, linked_at = excluded.linked_at`,
    [projectId, distinctId, final, now],
  );
  await db.write('UPDATE identity_links SET actor_id = $3, actor_key = md5_number_lower($3) WHERE project_id = $1 AND actor_id = $2', [projectId, distinctId, final]);
}

/**
 * Many synthetic events generated inside DuckDB, for tests that need a heavy table (time limits):
 * `count` events over `days` days from `start`, spread over `actors` actors and a few event names.
 */
export async function seedSyntheticEvents(server: TestServer, projectId: number, options: { count: number; actors: number; start: string; days: number }): Promise<void> {
  await server.running.services.events.write(
    `INSERT INTO events (project_id, uuid, ts, received_at, event, distinct_id, distinct_key, user_id, source, props, revenue)
     SELECT $1, uuid(), CAST($2 AS TIMESTAMPTZ) + to_seconds(CAST((i * 7919) % ($3 * 86400) AS BIGINT)), now(),
            'e' || CAST(i % 5 AS VARCHAR), 'u' || CAST(i % $4 AS VARCHAR), md5_number_lower('u' || CAST(i % $4 AS VARCHAR)), 'u' || CAST(i % $4 AS VARCHAR), 'server',
            CAST('{"plan":"p' || CAST(i % 3 AS VARCHAR) || '"}' AS JSON), CASE WHEN i % 10 = 0 THEN 9.5 END
     FROM range(CAST($5 AS BIGINT)) t(i)`,
    [projectId, options.start, options.days, options.actors, options.count],
  );
}

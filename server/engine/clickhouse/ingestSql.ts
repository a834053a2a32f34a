// The ClickHouse statements of what ingestion stores besides events (the shapes of
// engine/duckdb/ingestSql.ts): identity links and user traits, in identity_links and actor_traits
// (migration 0004), written on the connection of the ingest writer's turn; the refused attempts of
// the doctor view come from doctorSql.ts, element captures from captureSql.ts and recording chunks
// from replayIngestSql.ts.
//
// ClickHouse updates nothing in place: a link or a user's traits changed is a new row of a larger
// `version` (versionClock.ts), and reads keep the row of the largest one (links.ts; argMax below).
// Writes happen in writer turns, which run one at a time (ClickHouseEngine.useWriter): nothing
// interleaves between the read of a stored row and the write of the row that replaces it.
//
// Traits are merged here, in the writer's turn, exactly as DuckDB's json_merge_patch merges them
// (`mergePatch`): ClickHouse 18.16 has no JSON functions to do it.
//
// There are no transactions: each function writes one INSERT, which ClickHouse stores whole or not
// at all; `inTransaction` documents what a failure between two of them leaves.

import type { EngineConnection, Statement } from '../engine.js';
import { clickHouse } from './engineConnection.js';
import { distinctKeyOf, linksSql } from './links.js';
import { dateTimeText, literal, tuple } from './literal.js';
import { nextVersions, quorumSettings } from './versionClock.js';

export type { CaptureRow, ChunkRow, RejectionSelection } from '../duckdb/ingestSql.js';

export { storeCapture } from './captureSql.js';

export { captureSql } from './captureSql.js';

export { storeReplayChunk, replayChunksSql } from './replayIngestSql.js';

/** The doctor view's refused attempts (doctorSql.ts, with the view's accepted events). */
export { rejectedAttemptsSql } from './doctorSql.js';

/** An instant as two columns: the DateTime text (UTC) and the microseconds within its second. */
function instant(d: Date): [string, number] {
  const ms = d.getTime();
  return [dateTimeText(d), (((ms % 1000) + 1000) % 1000) * 1000];
}

/** The actor a distinct id is linked to, if any, read on the writer's connection. */
export async function linkedActor(conn: EngineConnection, projectId: number, distinctId: string): Promise<string | undefined> {
  const [row] = await clickHouse(conn).query<{ actor_id: string }>(`SELECT actor_id FROM (${linksSql(projectId, [distinctId])})`);
  return row ? row.actor_id : undefined;
}

/** Inserts links `ids[i]` → `actors[i]` in one INSERT (stored whole or not at all), each row of a new version. */
async function insertLinks(conn: EngineConnection, projectId: number, ids: readonly string[], actors: readonly string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  const ch = clickHouse(conn);
  const [linkedAt, linkedUs] = instant(at);
  const version = await nextVersions(ch, at, ids.length);
  const rows = ids.map((id, i) => tuple([projectId, distinctKeyOf(id), id, distinctKeyOf(actors[i]!), actors[i]!, linkedAt, linkedUs, version[i]!]));
  await ch.command(`INSERT INTO identity_links (project_id, distinct_key, distinct_id, actor_key, actor_id, linked_at, linked_us, version) VALUES ${rows.join(', ')}`, {
    settings: await quorumSettings(ch),
  });
}

/**
 * Links `fromId`, and every id linked to it, to `actorId`, in one INSERT, so a crash cannot leave
 * `fromId` linked while ids that pointed at it are not.
 */
export async function storeLink(conn: EngineConnection, projectId: number, fromId: string, actorId: string, at: Date): Promise<void> {
  const pointing = await clickHouse(conn).query<{ distinct_id: string }>(`SELECT distinct_id FROM (${linksSql(projectId)}) WHERE actor_id = ${literal(fromId)}`);
  const ids = [...new Set([fromId, ...pointing.map((r) => r.distinct_id)])];
  await insertLinks(
    conn,
    projectId,
    ids,
    ids.map(() => actorId),
    at,
  );
}

/** The actor a distinct id is linked to (`actor_id`; no row when unlinked). */
export function actorSql(projectId: number, distinctId: string): Statement {
  return { sql: `SELECT actor_id FROM (${linksSql(projectId, [distinctId])})`, params: [] };
}

/** The most text of ids' literals one statement carries (twice), well under max_query_size (256 KiB). */
const IDS_TEXT_MAX = 100_000;

/** Every identity link of a project: `distinct_id`, `actor_id` (an import's batch decides its links from them). */
export async function projectLinks(conn: EngineConnection, projectId: number, ids?: readonly string[]): Promise<Array<{ distinct_id: string; actor_id: string }>> {
  if (ids?.length === 0) return [];
  // Many ids (an import's batch) would pass max_query_size as literals: then every link of the project is read.
  const list = ids === undefined ? '' : literal(ids);
  const among = ids === undefined || Buffer.byteLength(list) > IDS_TEXT_MAX ? '' : ` WHERE has(${list}, distinct_id) OR has(${list}, actor_id)`;
  return clickHouse(conn).query<{ distinct_id: string; actor_id: string }>(`SELECT distinct_id, actor_id FROM (${linksSql(projectId)})${among}`);
}

/** Stores many links at once, `ids[i]` to `actors[i]`, replacing what each id pointed at. */
export async function storeLinks(conn: EngineConnection, projectId: number, ids: string[], actors: string[], at: Date): Promise<void> {
  await insertLinks(conn, projectId, ids, actors, at);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `patch` applied to `target` as DuckDB's json_merge_patch applies it (yyjson's merge patch): a patch
 * that is not an object replaces the target; otherwise the target's keys the patch does not name
 * come first, as they are (a null among them stays), then the patch's keys, a null one left out and
 * an object one merged into the target's value. (A key that reads as an integer is put first by any
 * JavaScript object: the text may order such keys otherwise than DuckDB's, the value is the same.)
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const from = isObject(target) ? target : {};
  // No prototype: a key named __proto__ is a key like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(from)) if (!Object.hasOwn(patch, k)) out[k] = v;
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) continue;
    out[k] = mergePatch(Object.hasOwn(from, k) ? from[k] : undefined, v);
  }
  return out;
}

/** The traits stored for these users now, as JSON text (none for a user without any). */
async function storedTraits(conn: EngineConnection, projectId: number, users: readonly string[]): Promise<Map<string, string>> {
  const stored = new Map<string, string>();
  // A statement's text must stay under max_query_size (256 KiB): users are looked up some 64 KiB of their ids at a time.
  let at = 0;
  while (at < users.length) {
    const slice: string[] = [];
    for (let size = 0; at < users.length && size < 65_536; at++) {
      const user = literal(users[at]!);
      slice.push(user);
      size += user.length + 2;
    }
    const rows = await clickHouse(conn).query<{ user_id: string; traits: string }>(
      `SELECT user_id, argMax(traits, version) AS traits FROM actor_traits WHERE project_id = ${literal(projectId)} AND user_id IN (${slice.join(', ')}) GROUP BY user_id`,
    );
    for (const r of rows) stored.set(r.user_id, r.traits);
  }
  return stored;
}

/** Inserts each user's merged traits in one INSERT, each row of a new version. */
async function insertTraits(conn: EngineConnection, projectId: number, merged: ReadonlyArray<[string, unknown]>, at: Date): Promise<void> {
  if (merged.length === 0) return;
  const ch = clickHouse(conn);
  const [updatedAt, updatedUs] = instant(at);
  const version = await nextVersions(ch, at, merged.length);
  const rows = merged.map(([user, traits], i) => tuple([projectId, user, JSON.stringify(traits), updatedAt, updatedUs, version[i]!]));
  await ch.command(`INSERT INTO actor_traits (project_id, user_id, traits, updated_at, updated_us, version) VALUES ${rows.join(', ')}`, { settings: await quorumSettings(ch) });
}

/**
 * Merges `traits` (JSON text) into the user's: later keys win, a null value removes a key; with
 * `once`, a key already stored keeps its value. (As on DuckDB: a user's first traits are the patch
 * over nothing; with `once`, what is stored is merged over the traits as sent.)
 */
export async function storeTraits(conn: EngineConnection, projectId: number, userId: string, traits: string, once: boolean, at: Date): Promise<void> {
  const text = (await storedTraits(conn, projectId, [userId])).get(userId);
  const patch: unknown = JSON.parse(traits);
  const merged = text === undefined ? mergePatch({}, patch) : once ? mergePatch(patch, JSON.parse(text)) : mergePatch(JSON.parse(text), patch);
  await insertTraits(conn, projectId, [[userId, merged]], at);
}

/**
 * Merges many users' traits at once (`traits[i]`, JSON text, for `users[i]`): over what is stored, or
 * for `once` ($set_once) only into keys not stored yet. (As on DuckDB: each patch is first merged over
 * nothing, so a null in it removes no stored key.)
 */
export async function storeManyTraits(conn: EngineConnection, projectId: number, users: string[], traits: string[], once: boolean, at: Date): Promise<void> {
  const stored = await storedTraits(conn, projectId, users);
  const merged = users.map((user, i): [string, unknown] => {
    const patch = mergePatch({}, JSON.parse(traits[i]!));
    const text = stored.get(user);
    return [user, text === undefined ? patch : once ? mergePatch(patch, JSON.parse(text)) : mergePatch(JSON.parse(text), patch)];
  });
  await insertTraits(conn, projectId, merged, at);
}

/**
 * Runs `work` on `conn`. ClickHouse has no transactions: each write of `work` is one INSERT, stored
 * whole or not at all, but a failure (a crash, a node lost) between two of them leaves the first
 * stored without the next: an import batch's links without its traits, or its `$set` traits without
 * its `$set_once` ones. Ingestion applies a batch again until it is acknowledged (an import resumes
 * from the checkpoint saved only after its batch's identities are applied), and applying one again
 * repairs it: a link already stored is decided unchanged (an id already linked keeps its actor), and
 * a merge of traits applied over its own result changes nothing, so the retry writes what is missing.
 */
export async function inTransaction<T>(_conn: EngineConnection, work: () => Promise<T>): Promise<T> {
  return work();
}

// POST /projects/{id}/persons/{key}/export: everything stored about a person as one NDJSON download,
// written as it is read (a page of events or a few recording chunks at a time), so the server's
// memory stays flat whatever the person's volume. Line by line: the person, every event (those
// labeling rules derived from theirs included), their identity links, their traits, and every
// chunk of their recordings with its rrweb events as recorded (already masked by the tracker).

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Response } from 'express';
import type { Services } from '../http/services.js';
import { readEvents } from '../events/timeLimit.js';
import { itemFromRow } from '../events/eventItem.js';
import { statementsOf } from '../engine/statements.js';
import { findPerson } from './personSummary.js';

const gunzipAsync = promisify(gunzip);

/** Writes a line, waiting while the client is slower than the reads; false once the client is gone. */
type WriteLine = (value: unknown) => Promise<boolean>;

function lineWriter(res: Response): WriteLine {
  const closed = new Promise<void>((resolve) => res.once('close', resolve));
  return async (value) => {
    if (res.destroyed) return false;
    if (!res.write(`${JSON.stringify(value)}\n`)) await Promise.race([new Promise((resolve) => res.once('drain', resolve)), closed]);
    return !res.destroyed;
  };
}

/** Streams the export to `res`; `started` runs once the person is found, before the first byte. */
export async function exportPerson(services: Services, res: Response, projectId: number, key: string, started: () => void): Promise<void> {
  const person = await findPerson(services, projectId, key);
  started();
  const now = services.clock.now();
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="person-${projectId}-${now.toISOString().slice(0, 10)}.ndjson"`);
  res.setHeader('Cache-Control', 'no-store');
  const write = lineWriter(res);
  const ids = person.ids;
  if (!(await write({ type: 'person', actor_id: person.actor_id, distinct_ids: ids, user_ids: person.user_ids, exported_at: now.toISOString() }))) return;
  if (!(await writeEvents(services, write, projectId, ids))) return;
  if (!(await writeIdentity(services, write, projectId, ids))) return;
  if (!(await writeRecordings(services, write, projectId, ids))) return;
  res.end();
}

/** Every event of the person, oldest first, by keyset pages on (time, uuid). */
async function writeEvents(services: Services, write: WriteLine, projectId: number, ids: string[]): Promise<boolean> {
  let after: { us: bigint; uuid: string } | undefined;
  for (;;) {
    const sql = statementsOf(services.events).persons;
    const rows = await readEvents(services, sql.personEventsPageSql(projectId, ids, after));
    for (const row of rows) {
      const line = { type: 'event', ...itemFromRow(row), labeled: row.rule_id !== null, elements: row.elements === null ? null : (JSON.parse(String(row.elements)) as unknown) };
      if (!(await write(line))) return false;
    }
    if (rows.length < sql.EVENTS_PER_READ) return true;
    const last = rows.at(-1)!;
    after = { us: BigInt(last.ts_us as bigint), uuid: String(last.uuid) };
  }
}

/** The person's identity links and the traits sent with identify. */
async function writeIdentity(services: Services, write: WriteLine, projectId: number, ids: string[]): Promise<boolean> {
  const sql = statementsOf(services.events).persons;
  const links = await readEvents(services, sql.personLinksSql(projectId, ids));
  for (const l of links) {
    if (!(await write({ type: 'identity_link', distinct_id: String(l.distinct_id), actor_id: String(l.actor_id), linked_at: new Date(Number(l.at)).toISOString() }))) return false;
  }
  const traits = await readEvents(services, sql.personTraitsSql(projectId, ids));
  for (const r of traits) {
    if (!(await write({ type: 'traits', user_id: String(r.user_id), traits: JSON.parse(String(r.traits)) as unknown, updated_at: new Date(Number(r.at)).toISOString() }))) return false;
  }
  return true;
}

/** Every chunk of the person's recordings, by session and sequence number. */
async function writeRecordings(services: Services, write: WriteLine, projectId: number, ids: string[]): Promise<boolean> {
  let after: { session: string; seq: bigint } | undefined;
  for (;;) {
    const sql = statementsOf(services.events).persons;
    const rows = await readEvents(services, sql.personChunksPageSql(projectId, ids, after));
    for (const row of rows) {
      const events = JSON.parse((await gunzipAsync((row.data as { bytes: Uint8Array }).bytes)).toString('utf8')) as unknown[];
      const line = {
        type: 'recording_chunk',
        session_id: String(row.session_id),
        seq: Number(row.seq),
        anonymous_id: String(row.anonymous_id),
        received_at: new Date(Number(row.at)).toISOString(),
        events,
      };
      if (!(await write(line))) return false;
    }
    if (rows.length < sql.CHUNKS_PER_READ) return true;
    const last = rows.at(-1)!;
    after = { session: String(last.session_id), seq: BigInt(last.seq as bigint) };
  }
}

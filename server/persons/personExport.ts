// POST /projects/{id}/persons/{key}/export: everything stored about a person as one NDJSON download,
// written as it is read (a page of events or a few recording chunks at a time), so the server's
// memory stays flat whatever the person's volume. Line by line: the person, every event (those
// labeling rules derived from theirs included), their identity links, their traits, and every
// chunk of their recordings with its rrweb events as recorded (already masked by the tracker).

import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Response } from 'express';
import type { Services } from '../services.js';
import { WhereBuilder } from '../events/eventsWhere.js';
import { readEvents } from '../events/timeLimit.js';
import { ITEM_COLUMNS, itemFromRow } from '../events/eventItem.js';
import { inIds, personEvents } from './personIds.js';
import { findPerson } from './personSummary.js';

const gunzipAsync = promisify(gunzip);

/** Events read per statement. */
const EVENTS_PER_READ = 1000;
/** Recording chunks read per statement (each at most 512 KiB of events as sent). */
const CHUNKS_PER_READ = 16;

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
    const w = new WhereBuilder();
    const where = personEvents(w, projectId, ids);
    const from = after ? ` AND (e.ts > make_timestamptz(${w.bind(after.us)}::BIGINT) OR (e.ts = make_timestamptz(${w.bind(after.us)}::BIGINT) AND e.uuid > ${w.bind(after.uuid)}::UUID))` : '';
    const rows = await readEvents(
      services,
      `SELECT ${ITEM_COLUMNS}, page.rule_id, page.elements::VARCHAR AS elements, epoch_us(page.ts) AS ts_us
         FROM (SELECT * FROM events e WHERE ${where}${from} ORDER BY e.ts, e.uuid LIMIT ${EVENTS_PER_READ}) page
         LEFT JOIN identity_links l ON l.project_id = page.project_id AND l.distinct_id = page.distinct_id
        ORDER BY page.ts, page.uuid`,
      w.build().params,
    );
    for (const row of rows) {
      const line = { type: 'event', ...itemFromRow(row), labeled: row.rule_id !== null, elements: row.elements === null ? null : (JSON.parse(String(row.elements)) as unknown) };
      if (!(await write(line))) return false;
    }
    if (rows.length < EVENTS_PER_READ) return true;
    const last = rows.at(-1)!;
    after = { us: BigInt(last.ts_us as bigint), uuid: String(last.uuid) };
  }
}

/** The person's identity links and the traits sent with identify. */
async function writeIdentity(services: Services, write: WriteLine, projectId: number, ids: string[]): Promise<boolean> {
  const w = new WhereBuilder();
  const p = w.bind(projectId);
  const links = await readEvents(
    services,
    `SELECT distinct_id, actor_id, epoch_ms(linked_at) AS at FROM identity_links
      WHERE project_id = ${p} AND (${inIds(w, 'distinct_id', ids)} OR ${inIds(w, 'actor_id', ids)}) ORDER BY distinct_id`,
    w.build().params,
  );
  for (const l of links) {
    if (!(await write({ type: 'identity_link', distinct_id: String(l.distinct_id), actor_id: String(l.actor_id), linked_at: new Date(Number(l.at)).toISOString() }))) return false;
  }
  const t = new WhereBuilder();
  const traits = await readEvents(
    services,
    `SELECT user_id, traits::VARCHAR AS traits, epoch_ms(updated_at) AS at FROM actor_traits WHERE project_id = ${t.bind(projectId)} AND ${inIds(t, 'user_id', ids)} ORDER BY user_id`,
    t.build().params,
  );
  for (const r of traits) {
    if (!(await write({ type: 'traits', user_id: String(r.user_id), traits: JSON.parse(String(r.traits)) as unknown, updated_at: new Date(Number(r.at)).toISOString() }))) return false;
  }
  return true;
}

/** Every chunk of the person's recordings, by session and sequence number. */
async function writeRecordings(services: Services, write: WriteLine, projectId: number, ids: string[]): Promise<boolean> {
  let after: { session: string; seq: bigint } | undefined;
  for (;;) {
    const w = new WhereBuilder();
    const from = after ? ` AND (session_id > ${w.bind(after.session)} OR (session_id = ${w.bind(after.session)} AND seq > ${w.bind(after.seq)}))` : '';
    const rows = await readEvents(
      services,
      `SELECT session_id, seq, anonymous_id, epoch_ms(received_at) AS at, data FROM replay_chunks
        WHERE project_id = ${w.bind(projectId)} AND session_id IN (SELECT session_id FROM replay_chunks WHERE project_id = ${w.bind(projectId)} AND ${inIds(w, 'anonymous_id', ids)})${from}
        ORDER BY session_id, seq LIMIT ${CHUNKS_PER_READ}`,
      w.build().params,
    );
    for (const row of rows) {
      const events = JSON.parse((await gunzipAsync((row.data as { bytes: Uint8Array }).bytes)).toString('utf8')) as unknown[];
      const line = { type: 'recording_chunk', session_id: String(row.session_id), seq: Number(row.seq), anonymous_id: String(row.anonymous_id), received_at: new Date(Number(row.at)).toISOString(), events };
      if (!(await write(line))) return false;
    }
    if (rows.length < CHUNKS_PER_READ) return true;
    const last = rows.at(-1)!;
    after = { session: String(last.session_id), seq: BigInt(last.seq as bigint) };
  }
}

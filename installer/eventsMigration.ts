// `ppctl events migrate --to clickhouse`: moves a stopped installation's events from its DuckDB file
// to the ClickHouse nodes of the clickhouse.* settings, then switches it over. The events go a
// project and a UTC day at a time, in large blocks, through the ClickHouse appender (the one way
// ingestion stores them: a block of a day copied again leaves out the uuids already held); the refused
// attempts, identity links and traits follow per project. A checkpoint file in the data folder
// records each finished day, so a run stopped anywhere (a kill, a lost node) is resumed by running
// the command again; a day cut short is copied again whole, harmlessly. Nothing is switched until
// every project's and day's count agrees between DuckDB and ClickHouse (read with FINAL: a row that
// got in twice before its parts merged counts once); then `events.engine clickhouse` and the
// clickhouse.* settings are written into the installation's config file. The DuckDB file is left
// as it was.

import { chownSync, existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ClickHouseSettings, Config } from '../server/ground/config.js';
import { createLogger } from '../server/ground/logger.js';
import { openServices } from '../server/openServices.js';
import type { EventEngine, Row } from '../server/engine/engine.js';
import type { StoredEvent, StoredRejection } from '../server/engine/rows.js';
import { ClickHouseEngine } from '../server/engine/clickhouse/clickHouseEngine.js';
import { clickHouse } from '../server/engine/clickhouse/engineConnection.js';
import { dateTimeText, tuple } from '../server/engine/clickhouse/literal.js';
import { InstallerError } from './installation.js';
import { runningServerStatus } from './runningServer.js';
import { isRoot } from './serviceUser.js';

/** The checkpoint, beside the data it describes. */
export const CHECKPOINT_FILE = 'events-migration.json';
const DAY_MS = 86_400_000;
export const DEFAULT_BLOCK_ROWS = 20_000;

export interface MigrationOutput {
  json: boolean;
  /** Standard error is a terminal: a progress bar is drawn there. */
  tty: boolean;
  out(line: string): void;
  err(text: string): void;
}

export interface MigrationOptions {
  /** Events per INSERT (default 20000). */
  blockRows?: number;
}

interface Checkpoint {
  target: { urls: string[]; cluster: string | null; database: string };
  /** `project/day` (UTC, YYYY-MM-DD), and `rejections|links|traits/project`, with the rows copied. */
  done: Record<string, number>;
}

export interface Mismatch {
  what: string;
  project_id: number;
  day?: string;
  duckdb: number;
  clickhouse: number;
}

export interface MigrationReport {
  events: number;
  days: number;
  /** Days (and per-project tables) found done by an earlier run. */
  resumed: number;
  rejections: number;
  identity_links: number;
  actor_traits: number;
  mismatches: Mismatch[];
  switched: boolean;
  /** Where the settings were written, or why they were not. */
  config_file: string | null;
  note?: string;
}

type Counts = Map<string, number>;

const dayText = (dayNumber: number) => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);

function sameTarget(a: Checkpoint['target'], b: Checkpoint['target']): boolean {
  return a.database === b.database && a.cluster === b.cluster && a.urls.join(',') === b.urls.join(',');
}

function readCheckpoint(file: string, target: Checkpoint['target']): Checkpoint {
  if (existsSync(file)) {
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
      if (saved.target && sameTarget(saved.target, target) && typeof saved.done === 'object') return saved;
    } catch {
      // A checkpoint that cannot be read is started over: copying again is harmless.
    }
  }
  return { target, done: {} };
}

function writeCheckpoint(file: string, checkpoint: Checkpoint): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(checkpoint) + '\n', { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** Events on DuckDB, per project and UTC day. */
async function duckDbDays(events: EventEngine): Promise<Counts> {
  const rows = await events.read('SELECT project_id, epoch_ms(ts) // 86400000 AS day, count(*) AS n FROM events GROUP BY ALL ORDER BY ALL');
  return new Map(rows.map((r) => [`${Number(r.project_id)}/${dayText(Number(r.day))}`, Number(r.n)]));
}

async function duckDbPerProject(events: EventEngine, table: string): Promise<Counts> {
  const rows = await events.read(`SELECT project_id, count(*) AS n FROM ${table} GROUP BY ALL ORDER BY ALL`);
  return new Map(rows.map((r) => [String(Number(r.project_id)), Number(r.n)]));
}

const EVENT_SELECT = `SELECT project_id, uuid::VARCHAR AS uuid, epoch_ms(ts) AS ts, epoch_ms(received_at) AS received_at, event, distinct_id, distinct_key::VARCHAR AS distinct_key,
  anonymous_id, user_id, session_id, source, sdk_name, sdk_version, key_id, release, url, path, referrer, props::VARCHAR AS props, revenue, elements::VARCHAR AS elements,
  invalid, to_json(invalid_reasons)::VARCHAR AS invalid_reasons, rule_id::VARCHAR AS rule_id, source_uuid::VARCHAR AS source_uuid, to_json(el_tags)::VARCHAR AS el_tags,
  to_json(el_ids)::VARCHAR AS el_ids, to_json(el_classes)::VARCHAR AS el_classes, to_json(el_nth)::VARCHAR AS el_nth, to_json(el_attrs)::VARCHAR AS el_attrs, el_text
  FROM events`;

const list = <T>(text: unknown): T[] | undefined => (text === null || text === undefined ? undefined : (JSON.parse(String(text)) as T[]));

function storedEvent(r: Row): StoredEvent {
  return {
    project_id: Number(r.project_id),
    uuid: r.uuid,
    ts: new Date(Number(r.ts)),
    received_at: new Date(Number(r.received_at)),
    event: r.event,
    distinct_id: r.distinct_id,
    distinct_key: BigInt(r.distinct_key),
    anonymous_id: r.anonymous_id,
    user_id: r.user_id,
    session_id: r.session_id,
    source: r.source,
    sdk_name: r.sdk_name,
    sdk_version: r.sdk_version,
    key_id: r.key_id ?? '',
    release: r.release,
    url: r.url,
    path: r.path,
    referrer: r.referrer,
    props: r.props,
    revenue: r.revenue === null ? null : Number(r.revenue),
    elements: r.elements,
    invalid: Boolean(r.invalid),
    invalid_reasons: list<string>(r.invalid_reasons) ?? null,
    ...(r.rule_id === null ? {} : { rule_id: Number(r.rule_id) }),
    ...(r.source_uuid === null ? {} : { source_uuid: r.source_uuid }),
    el_tags: list(r.el_tags),
    el_ids: list(r.el_ids),
    el_classes: list(r.el_classes),
    el_nth: list(r.el_nth),
    el_attrs: list(r.el_attrs),
    el_text: r.el_text ?? null,
  };
}

function storedRejection(r: Row): StoredRejection {
  return {
    project_id: Number(r.project_id),
    received_at: new Date(Number(r.received_at)),
    request_id: r.request_id,
    event_index: r.event_index === null ? null : Number(r.event_index),
    operation: r.operation,
    key_id: r.key_id,
    source: r.source,
    sdk_name: r.sdk_name,
    sdk_version: r.sdk_version,
    event: r.event,
    code: r.code,
    message: r.message,
  };
}

/** An instant in µs as ClickHouse's two columns. */
function instantUs(us: bigint): [string, number] {
  const seconds = us / 1_000_000n;
  return [dateTimeText(new Date(Number(seconds) * 1000)), Number(us - seconds * 1_000_000n)];
}

/** Runs the migration; the report says what was copied, what disagrees, and whether the installation was switched. */
export async function migrateEventsToClickHouse(config: Config, target: ClickHouseSettings, o: MigrationOutput, options: MigrationOptions = {}): Promise<MigrationReport> {
  if (config.events.engine === 'clickhouse') throw new InstallerError(`the events of ${config.data_dir} are on ClickHouse already (events.engine clickhouse)`);
  if (target.urls.length === 0) throw new InstallerError('name the ClickHouse nodes: --clickhouse-urls (or clickhouse.urls, PP_CLICKHOUSE_URLS)');
  if (!existsSync(path.join(config.data_dir, 'events.duckdb'))) throw new InstallerError(`${config.data_dir} holds no DuckDB event store (events.duckdb)`);
  const running = await runningServerStatus(config);
  if (running) throw new InstallerError(`pp ${running.version} is running on ${config.data_dir} (pid ${running.pid}); stop it first: its events must not change while they are moved`);
  const blockRows = Math.max(1, options.blockRows ?? DEFAULT_BLOCK_ROWS);
  const say = (line: string, json: Record<string, unknown>) => (o.json ? o.out(JSON.stringify(json)) : o.out(line));

  // The journal's acknowledged batches are loaded into DuckDB first, as any offline command does.
  const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
  const duck = opened.services.events;
  let ch: ClickHouseEngine | undefined;
  try {
    ({ engine: ch } = await ClickHouseEngine.open(target));
    const clickhouse = ch;
    const checkpointFile = path.join(config.data_dir, CHECKPOINT_FILE);
    const checkpoint = readCheckpoint(checkpointFile, { urls: target.urls, cluster: target.cluster ?? null, database: target.database });
    const days = await duckDbDays(duck);
    const total = [...days.values()].reduce((a, b) => a + b, 0);
    const resumed = Object.keys(checkpoint.done).length;
    let done = [...days].reduce((sum, [key, n]) => sum + (checkpoint.done[key] === undefined ? 0 : n), 0);
    if (resumed > 0) say(`resuming: ${resumed} day(s) and tables copied by an earlier run are left as they are`, { resumed });
    say(`copying ${total} events of ${days.size} project days to ClickHouse (${target.urls.join(', ')}, database ${target.database})`, { events: total, days: days.size });
    const started = Date.now();
    const doneAtStart = done;
    const progress = (label: string) => {
      if (o.json || !o.tty) return;
      const share = total > 0 ? done / total : 1;
      const width = 28;
      const rate = (done - doneAtStart) / Math.max(0.001, (Date.now() - started) / 1000);
      const eta = rate > 0 ? Math.round((total - done) / rate) : NaN;
      o.err(
        `\r[${'#'.repeat(Math.round(share * width))}${'-'.repeat(width - Math.round(share * width))}] ${(share * 100).toFixed(0).padStart(3)}%  ${done} of ${total} events  ${label}  ETA ${Number.isFinite(eta) ? `${eta}s` : '?'}   `,
      );
    };

    // Only a day an earlier run began (cut short) can hold uuids to leave out: the look-up reads every
    // uuid of the project, once per block, which made a large store's move quadratic.
    const begun = new Set((await clickhouse.read('SELECT DISTINCT project_id, substring(toString(toStartOfDay(ts)), 1, 10) AS day FROM events')).map((r) => `${Number(r.project_id)}/${r.day}`));
    for (const [key, count] of days) {
      if (checkpoint.done[key] !== undefined) continue;
      const [project, day] = key.split('/') as [string, string];
      const from = Date.parse(`${day}T00:00:00Z`) / 1000;
      let after = '00000000-0000-0000-0000-000000000000';
      let copied = 0;
      const firstAttempt = !begun.has(key);
      for (;;) {
        const rows = await duck.read(`${EVENT_SELECT} WHERE project_id = $1 AND ts >= to_timestamp($2) AND ts < to_timestamp($3) AND uuid > $4::UUID ORDER BY uuid LIMIT $5`, [
          Number(project),
          from,
          from + DAY_MS / 1000,
          after,
          blockRows,
        ]);
        if (rows.length === 0) break;
        const events = rows.map(storedEvent);
        await clickhouse.useWriter((conn) => clickhouse.appender.append(conn, { events, rejections: [], firstAttempt }));
        copied += events.length;
        done += events.length;
        after = events[events.length - 1]!.uuid;
        progress(`project ${project} ${day}`);
        if (rows.length < blockRows) break;
      }
      checkpoint.done[key] = copied;
      writeCheckpoint(checkpointFile, checkpoint);
      if (o.json) o.out(JSON.stringify({ project_id: Number(project), day, events: copied, done, total }));
      else if (!o.tty) o.out(`project ${project} ${day}: ${copied} events copied (${done} of ${total})`);
      if (copied !== count) say(`  project ${project} ${day}: DuckDB counted ${count} events, ${copied} were read`, { project_id: Number(project), day, counted: count, read: copied });
    }
    if (o.tty && !o.json) o.err('\n');

    // Per project: refused attempts, identity links, traits (each table whole, one project at a time).
    const rejectionCounts = await duckDbPerProject(duck, 'ingest_rejections');
    for (const [project] of rejectionCounts) {
      const key = `rejections/${project}`;
      if (checkpoint.done[key] !== undefined) continue;
      let offset = 0;
      for (;;) {
        const rows = await duck.read(
          `SELECT project_id, epoch_ms(received_at) AS received_at, request_id, event_index, operation, key_id, source, sdk_name, sdk_version, event, code, message
             FROM ingest_rejections WHERE project_id = $1 ORDER BY received_at, request_id, event_index, code LIMIT $2 OFFSET $3`,
          [Number(project), blockRows, offset],
        );
        if (rows.length === 0) break;
        const rejections = rows.map(storedRejection);
        await clickhouse.useWriter((conn) => clickhouse.appender.append(conn, { events: [], rejections }));
        offset += rows.length;
        if (rows.length < blockRows) break;
      }
      checkpoint.done[key] = offset;
      writeCheckpoint(checkpointFile, checkpoint);
    }
    const linkCounts = await duckDbPerProject(duck, 'identity_links');
    const traitCounts = await duckDbPerProject(duck, 'actor_traits');
    for (const [table, counts] of [
      ['identity_links', linkCounts],
      ['actor_traits', traitCounts],
    ] as const) {
      for (const [project] of counts) {
        const key = `${table}/${project}`;
        if (checkpoint.done[key] !== undefined) continue;
        let offset = 0;
        for (;;) {
          const rows =
            table === 'identity_links'
              ? await duck.read(
                  `SELECT project_id, distinct_key::VARCHAR AS distinct_key, distinct_id, actor_key::VARCHAR AS actor_key, actor_id, epoch_us(linked_at)::VARCHAR AS us
                     FROM identity_links WHERE project_id = $1 ORDER BY distinct_id LIMIT $2 OFFSET $3`,
                  [Number(project), blockRows, offset],
                )
              : await duck.read(
                  `SELECT project_id, user_id, traits::VARCHAR AS traits, epoch_us(updated_at)::VARCHAR AS us FROM actor_traits WHERE project_id = $1 ORDER BY user_id LIMIT $2 OFFSET $3`,
                  [Number(project), blockRows, offset],
                );
          if (rows.length === 0) break;
          // A link's and a trait row's version is its time in µs: a later change (identify, alias) writes a larger one.
          const values = rows.map((r) => {
            const us = BigInt(r.us);
            const [at, atUs] = instantUs(us);
            return table === 'identity_links'
              ? tuple([Number(r.project_id), BigInt(r.distinct_key), r.distinct_id, BigInt(r.actor_key), r.actor_id, at, atUs, us])
              : tuple([Number(r.project_id), r.user_id, r.traits, at, atUs, us]);
          });
          const columns =
            table === 'identity_links' ? 'project_id, distinct_key, distinct_id, actor_key, actor_id, linked_at, linked_us, version' : 'project_id, user_id, traits, updated_at, updated_us, version';
          await clickhouse.useWriter((conn) => clickHouse(conn).command(`INSERT INTO ${table} (${columns}) VALUES ${values.join(',')}`));
          offset += rows.length;
          if (rows.length < blockRows) break;
        }
        checkpoint.done[key] = offset;
        writeCheckpoint(checkpointFile, checkpoint);
      }
    }

    // The journal position DuckDB reached: the server on ClickHouse goes on from there.
    const position = await duck.useWriter((conn) => duck.appender.journalPosition(conn), { changes: 'reported' });
    if (position > 0) await clickhouse.useWriter((conn) => clickhouse.appender.append(conn, { events: [], rejections: [], journalPosition: position }));

    // Every count, DuckDB against ClickHouse read with FINAL (the day not as toDate(ts): 18.16's FINAL adds the
    // sorting key's own toDate(ts) column, and a second one of that name is refused).
    const mismatches: Mismatch[] = [];
    const chDays = new Map(
      (await clickhouse.read('SELECT project_id, substring(toString(toStartOfDay(ts)), 1, 10) AS day, count() AS n FROM events FINAL GROUP BY project_id, day')).map((r) => [
        `${Number(r.project_id)}/${r.day}`,
        Number(r.n),
      ]),
    );
    for (const key of new Set([...days.keys(), ...chDays.keys()])) {
      const [project, day] = key.split('/') as [string, string];
      const a = days.get(key) ?? 0;
      const b = chDays.get(key) ?? 0;
      if (a !== b) mismatches.push({ what: 'events', project_id: Number(project), day, duckdb: a, clickhouse: b });
    }
    for (const [what, counts] of [
      ['ingest_rejections', rejectionCounts],
      ['identity_links', linkCounts],
      ['actor_traits', traitCounts],
    ] as const) {
      const held = new Map((await clickhouse.read(`SELECT project_id, count() AS n FROM ${what} FINAL GROUP BY project_id`)).map((r) => [String(Number(r.project_id)), Number(r.n)]));
      for (const project of new Set([...counts.keys(), ...held.keys()])) {
        const a = counts.get(project) ?? 0;
        const b = held.get(project) ?? 0;
        if (a !== b) mismatches.push({ what, project_id: Number(project), duckdb: a, clickhouse: b });
      }
    }
    mismatches.sort((a, b) => a.what.localeCompare(b.what) || a.project_id - b.project_id || (a.day ?? '').localeCompare(b.day ?? ''));

    const report: MigrationReport = {
      events: total,
      days: days.size,
      resumed,
      rejections: [...rejectionCounts.values()].reduce((a, b) => a + b, 0),
      identity_links: [...linkCounts.values()].reduce((a, b) => a + b, 0),
      actor_traits: [...traitCounts.values()].reduce((a, b) => a + b, 0),
      mismatches,
      switched: false,
      config_file: config.config_file ?? null,
    };
    if (mismatches.length > 0) {
      report.note = 'the counts disagree; the installation still uses DuckDB';
      return report;
    }
    if (!config.config_file) {
      report.note =
        'no config file to switch (pass --config or --config-dir): set events.engine clickhouse and the clickhouse.* settings (PP_EVENTS_ENGINE, PP_CLICKHOUSE_*) where the server reads them';
      return report;
    }
    switchConfig(config.config_file, target);
    rmCheckpoint(checkpointFile);
    report.switched = true;
    return report;
  } finally {
    await ch?.close();
    await opened.close();
  }
}

function rmCheckpoint(file: string): void {
  // Kept under another name: it says what was copied, should anyone ask later.
  if (existsSync(file)) renameSync(file, `${file}.done`);
}

/** Writes events.engine clickhouse and the clickhouse.* settings into the config file, keeping its other settings, mode and owner. */
export function switchConfig(configFile: string, target: ClickHouseSettings): void {
  const current = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  const clickhouse: Record<string, unknown> = { urls: target.urls, database: target.database, user: target.user };
  if (target.cluster !== undefined) clickhouse.cluster = target.cluster;
  if (target.password) clickhouse.password = target.password;
  // Dotted keys would shadow nothing (the file is read as nested objects), but would mislead a reader.
  for (const key of Object.keys(current)) if (key.startsWith('clickhouse.') || key === 'events.engine') delete current[key];
  const events = typeof current.events === 'object' && current.events !== null ? (current.events as Record<string, unknown>) : {};
  const next = { ...current, events: { ...events, engine: 'clickhouse' }, clickhouse };
  const owner = statSync(configFile);
  writeFileSync(`${configFile}.tmp`, JSON.stringify(next, null, 2) + '\n', { mode: owner.mode & 0o777 });
  if (isRoot()) chownSync(`${configFile}.tmp`, owner.uid, owner.gid);
  renameSync(`${configFile}.tmp`, configFile);
}

/** The report as the lines a person reads. */
export function migrationLines(report: MigrationReport): string[] {
  const lines = [
    `${report.events} events in ${report.days} project days, ${report.rejections} refused attempts, ${report.identity_links} identity links and ${report.actor_traits} trait rows are on ClickHouse`,
  ];
  if (report.mismatches.length > 0) {
    lines.push(`the counts disagree (DuckDB / ClickHouse read with FINAL):`);
    for (const m of report.mismatches.slice(0, 20)) lines.push(`  ${m.what} of project ${m.project_id}${m.day ? ` on ${m.day}` : ''}: ${m.duckdb} / ${m.clickhouse}`);
    if (report.mismatches.length > 20) lines.push(`  … and ${report.mismatches.length - 20} more`);
  }
  if (report.switched) lines.push(`every count agrees; ${report.config_file} now sets events.engine clickhouse (the DuckDB file is kept). Start the server: it uses ClickHouse.`);
  else if (report.note) lines.push(report.note);
  return lines;
}

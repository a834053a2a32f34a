// Keeps the per-day rollups folded from the events table in the background: actor_days (see
// migrations/duckdb/0020), property_days (0022), for the behavior reports page_days (0025),
// form_days (0026), click_cells and click_elements (0027, 0032), and for the Web page visit_days (0030). Every few seconds, events stored since
// the last pass are aggregated per project and local day in the project's zone, all in one
// transaction up to one folded rowid. A project whose zone changed is folded again from scratch, a
// key added to events.rollup_properties is folded from the first event, and a key removed from it
// is dropped. Queries stay exact whatever the folder's progress, as they read the raw events past
// the folded point (see the scan of each rollup beside this file).
//
// The folder relies on rowids of `events` growing in commit order, which holds because events are
// appended. Deleting events (a purge, through `exclusive`) breaks it twice: the rollup rows still
// count the deleted events, so the deleting transaction drops the project's rows (forgetFolded) or,
// knowing the local days of the deleted events, folds those days again (refoldDays); and a
// checkpoint that compacts row groups renumbers the rows after the deleted ones, then or at any
// later checkpoint (a deletion that checkpoints at once moves the folded point with its event,
// followFoldedPoint). So every pass first checks, in its own transaction, that the event at the
// folded rowid is still the one folded there, and folds everything again when it is not. Until that
// pass, queries miss the events stored past the folded point that the renumbering moved before it,
// and those stored since (the pass moves the data version, so no such answer stays cached). It runs
// on a connection of its own, so its transactions never wait for ingestion's group commits, nor
// they for it.

import { INTEGER, LIST, VARCHAR, listValue, type DuckDBConnection } from '@duckdb/node-api';
import type { Config } from '../../ground/config.js';
import type { Logger } from '../../ground/logger.js';
import type { MetaDb } from '../../store/sqlite.js';
import type { EventEngine } from '../engine.js';
import { propsPath } from '../conditions.js';
import { duckDb } from '../duckdb/connection.js';
import { COMPACT_ACTOR_DAYS, foldActorDays } from './actorDays.js';
import { CLICK_TABLES, compactClicks, foldClicks } from './clickDays.js';
import { COMPACT_FORM_DAYS, foldFormDays } from './formDays.js';
import { compactPageDays, foldPageDays } from './pageDays.js';
import { COMPACT_PROPERTY_DAYS, foldPropertyDays } from './propertyDays.js';
import { COMPACT_VISIT_DAYS, FORGET_VISITS, foldVisitDays } from './visitDays.js';

/** How often the folder looks for new events. */
const PASS_INTERVAL_MS = 5_000;
/** Events folded per transaction, which bounds the memory and duration of one. */
const ROWS_PER_PASS = 2_000_000;
/** Compaction merges delta rows once they exceed this, and a quarter of the compacted rows. */
const MIN_DELTA_ROWS = 200_000;

export interface FoldProgress {
  /** Events folded by this call. */
  folded: number;
  /** Projects folded again because their zone changed (or they were new). */
  refolded: number;
  compacted: boolean;
}

interface LiveProject {
  id: number;
  timezone: string;
}

/** Every rollup table holding rows per project and local day. */
const DAY_TABLES = ['actor_days', 'property_days', 'page_days', 'form_days', ...CLICK_TABLES, 'visit_days'];
/** Every rollup table holding rows per project, then the record of which projects are folded. */
const PROJECT_TABLES = [...DAY_TABLES, 'actor_day_zones'];

/** What the folder uses of the services (http/services.ts's Services, which holds the folder). */
export interface ActorDayServices {
  config: Config;
  log: Logger;
  meta: MetaDb;
  events: EventEngine;
  workers: { actorDays: ActorDayFolder };
}

export class ActorDayFolder {
  private running: Promise<unknown> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private conn: DuckDBConnection | undefined;
  private stopped = false;
  private upToDate = false;
  private retryCompactionAt = 0;

  constructor(private readonly services: ActorDayServices) {}

  /** Folds now and then on a timer until stopped; each pass folds everything pending. */
  start(): void {
    const pass = () =>
      void this.catchUp().catch((err: unknown) => {
        // A pass interrupted by shutdown is simply done again at the next start.
        if (!this.stopped) this.services.log.error({ err }, 'folding actor days failed');
      });
    this.timer = setInterval(pass, PASS_INTERVAL_MS);
    this.timer.unref();
    setImmediate(pass);
  }

  /**
   * Folds pending events (at most `maxRows` of them when given) and compacts when due. Calls made
   * while a pass runs wait for it and then run their own.
   */
  catchUp(options: { maxRows?: number } = {}): Promise<FoldProgress> {
    return this.serialized(
      () => this.fold(options.maxRows ?? Number.POSITIVE_INFINITY),
      () => ({ folded: 0, refolded: 0, compacted: false }),
    );
  }

  /** Merges every delta row now, whether or not it is due. */
  async compact(): Promise<void> {
    await this.serialized(
      () => this.compactIfDue(true),
      () => false,
    );
  }

  /**
   * Runs `work` while no pass runs (none starts before it ends), then checks the folded point
   * again: work that deletes events may have let a checkpoint renumber rowids. Once the folder is
   * stopped no pass runs any more, and the work runs at once; on an engine other than DuckDB too.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    // The rollups are DuckDB's: another engine keeps none, so no pass runs and nothing moves.
    if (this.services.events.kind !== 'duckdb') return work();
    return this.serialized(async () => {
      const result = await work();
      if (!this.stopped) await this.verifyFoldedPoint();
      return result;
    });
  }

  /** Runs `work` once no other work of the folder runs; once stopped, answers `ifStopped()` instead when given. */
  private async serialized<T>(work: () => Promise<T>, ifStopped?: () => T): Promise<T> {
    while (this.running) await this.running.catch(() => undefined);
    if (this.stopped && ifStopped) return ifStopped();
    const running = work().finally(() => {
      this.running = undefined;
    });
    this.running = running;
    return running;
  }

  /** Stops the timer and interrupts a pass in progress, which rolls back. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.running) this.conn?.interrupt();
    while (this.running) await this.running.catch(() => undefined);
  }

  private async connection(): Promise<DuckDBConnection> {
    if (!this.conn) this.conn = duckDb(await this.services.events.connect(() => this.stop()));
    return this.conn;
  }

  private async fold(maxRows: number): Promise<FoldProgress> {
    const progress: FoldProgress = { folded: 0, refolded: 0, compacted: false };
    const started = performance.now();
    let caughtUp = false;
    let through = -1;
    for (;;) {
      const budget = Math.min(ROWS_PER_PASS, maxRows - progress.folded);
      if (budget <= 0) break;
      const pass = await this.foldPass(budget);
      progress.folded += pass.folded;
      progress.refolded += pass.refolded;
      ({ caughtUp, through } = pass);
      if (caughtUp || this.stopped) break;
    }
    progress.compacted = this.stopped ? false : await this.compactIfDue();
    if (caughtUp && !this.upToDate) {
      this.upToDate = true;
      this.services.log.info({ through_rowid: through }, 'actor days up to date');
    }
    if (progress.folded > 0 || progress.refolded > 0) {
      this.services.log.info({ folded: progress.folded, refolded: progress.refolded, compacted: progress.compacted, ms: Math.round(performance.now() - started) }, 'actor days folded');
    }
    return progress;
  }

  /**
   * One transaction: projects with a new or changed zone folded from scratch, property keys added
   * to the setting folded from the start and removed ones dropped, then new events.
   */
  private async foldPass(budget: number): Promise<{ folded: number; refolded: number; caughtUp: boolean; through: number }> {
    const live = liveProjects(this.services);
    const keys = [...new Set(this.services.config.events.rollup_properties)];
    let emptied: number[] = [];
    const pass = await this.transaction(async (conn) => {
      emptied = await emptyIfMoved(conn, this.services);
      const [state] = (await conn.runAndReadAll('SELECT through_rowid AS w, (SELECT coalesce(max(rowid), -1) FROM events) AS top FROM actor_day_state')).getRowObjects();
      const through = Number(state!.w);
      const top = Number(state!.top);
      // Never below `through`: the event folded there is still stored (emptyIfMoved).
      const upto = Math.min(top, through + budget);
      const zones = new Map((await conn.runAndReadAll('SELECT project_id, timezone FROM actor_day_zones')).getRows().map(([id, tz]) => [Number(id), String(tz)]));
      const stale = live.filter((p) => zones.get(p.id) !== p.timezone);
      const current = live.filter((p) => zones.get(p.id) === p.timezone);
      const liveIds = new Set(live.map((p) => p.id));
      const dropped = [...stale.map((p) => p.id), ...[...zones.keys()].filter((id) => !liveIds.has(id))];
      const held = (await conn.runAndReadAll('SELECT key FROM property_day_keys')).getRows().map(([k]) => String(k));
      const added = keys.filter((k) => !held.includes(k));
      const removed = held.filter((k) => !keys.includes(k));
      const kept = keys.filter((k) => held.includes(k));
      if (dropped.length === 0 && upto === through && added.length === 0 && removed.length === 0) return { folded: 0, refolded: 0, caughtUp: true, through };
      if (dropped.length > 0) {
        const ids = { ids: listValue(dropped) };
        const types = { ids: LIST(INTEGER) };
        for (const t of PROJECT_TABLES) await conn.run(`DELETE FROM ${t} WHERE project_id IN (SELECT unnest($ids))`, ids, types);
      }
      if (removed.length > 0) {
        const gone = { keys: listValue(removed) };
        const types = { keys: LIST(VARCHAR) };
        await conn.run('DELETE FROM property_days WHERE key IN (SELECT unnest($keys))', gone, types);
        await conn.run('DELETE FROM property_day_keys WHERE key IN (SELECT unnest($keys))', gone, types);
      }
      const properties = async (projects: LiveProject[], of: string[], where: string, bounds: Record<string, bigint>) => {
        if (projects.length === 0 || of.length === 0) return;
        await conn.run(`INSERT INTO property_days ${foldPropertyDays(where)}`, { ...projectLists(projects), ...keyLists(of), ...bounds }, { ...projectTypes, ...keyTypes });
      };
      if (stale.length > 0) {
        await conn.run(`INSERT INTO actor_days ${foldActorDays('e.rowid <= $upto')}`, { ...projectLists(stale), upto: BigInt(upto) }, projectTypes);
        await conn.run(`INSERT INTO page_days ${foldPageDays('e.rowid <= $upto')}`, { ...projectLists(stale), upto: BigInt(upto) }, projectTypes);
        await conn.run(`INSERT INTO form_days ${foldFormDays('e.rowid <= $upto')}`, { ...projectLists(stale), upto: BigInt(upto) }, projectTypes);
        await conn.run(`INSERT INTO visit_days ${foldVisitDays('e.rowid <= $upto')}`, { ...projectLists(stale), upto: BigInt(upto) }, projectTypes);
        for (const t of CLICK_TABLES) await conn.run(`INSERT INTO ${t} ${foldClicks(t, 'e.rowid <= $upto')}`, { ...projectLists(stale), upto: BigInt(upto) }, projectTypes);
        await properties(stale, keys, 'e.rowid <= $upto', { upto: BigInt(upto) });
        await conn.run('INSERT INTO actor_day_zones SELECT unnest($ids), unnest($zones)', projectLists(stale), projectTypes);
      }
      if (added.length > 0) {
        await properties(current, added, 'e.rowid <= $upto', { upto: BigInt(upto) });
        await conn.run('INSERT INTO property_day_keys SELECT unnest($keys)', { keys: listValue(added) }, { keys: LIST(VARCHAR) });
      }
      if (current.length > 0 && upto > through) {
        const bounds = { through: BigInt(through), upto: BigInt(upto) };
        await conn.run(`INSERT INTO actor_days ${foldActorDays('e.rowid > $through AND e.rowid <= $upto')}`, { ...projectLists(current), ...bounds }, projectTypes);
        await conn.run(`INSERT INTO page_days ${foldPageDays('e.rowid > $through AND e.rowid <= $upto')}`, { ...projectLists(current), ...bounds }, projectTypes);
        await conn.run(`INSERT INTO form_days ${foldFormDays('e.rowid > $through AND e.rowid <= $upto')}`, { ...projectLists(current), ...bounds }, projectTypes);
        await conn.run(`INSERT INTO visit_days ${foldVisitDays('e.rowid > $through AND e.rowid <= $upto')}`, { ...projectLists(current), ...bounds }, projectTypes);
        for (const t of CLICK_TABLES) await conn.run(`INSERT INTO ${t} ${foldClicks(t, 'e.rowid > $through AND e.rowid <= $upto')}`, { ...projectLists(current), ...bounds }, projectTypes);
        await properties(current, kept, 'e.rowid > $through AND e.rowid <= $upto', bounds);
      }
      await conn.run('UPDATE actor_day_state SET through_rowid = $upto, through_uuid = (SELECT uuid FROM events WHERE rowid = $upto)', { upto: BigInt(upto) });
      return { folded: upto - through, refolded: stale.length, caughtUp: upto === top, through: upto };
    });
    this.answersChanged(emptied);
    return pass;
  }

  /** Checks the folded point on its own (after work that deleted events), folding everything again when it moved. */
  private async verifyFoldedPoint(): Promise<void> {
    this.answersChanged(await this.transaction((conn) => emptyIfMoved(conn, this.services)));
  }

  /**
   * Moves the data version of projects whose rollup rows were emptied, once that is committed: an
   * answer computed from the moved rowids before (read a few too few raw events) must not be served
   * from the cache.
   */
  private answersChanged(projectIds: number[]): void {
    if (projectIds.length > 0) this.services.events.changed(projectIds);
  }

  /**
   * Merges the delta rows of many passes into one row per key, ordered for zone-map pruning. The
   * merged rows go to a table that replaces the old one in the same transaction (a stored table
   * spills to disk under the memory limit; a temporary one would not).
   */
  private async compactIfDue(force = false): Promise<boolean> {
    const conn = await this.connection();
    const [row] = (await conn.runAndReadAll('SELECT (SELECT count(*) FROM actor_days) AS total, compacted_rows AS compacted FROM actor_day_state')).getRowObjects();
    const total = Number(row!.total);
    const compacted = Number(row!.compacted);
    // A negative count: a migration asks for a compaction whatever the rollups' size.
    const owed = compacted < 0;
    if (!force && !owed && (total - compacted <= Math.max(MIN_DELTA_ROWS, compacted / 4) || total < this.retryCompactionAt)) return false;
    // One transaction per rollup: one that does not fit the memory budget leaves the others compacted.
    const statements = (list: readonly string[]) => async (c: DuckDBConnection) => {
      for (const statement of list) await c.run(statement);
    };
    const rollups: Array<(c: DuckDBConnection) => Promise<void>> = [
      statements([...COMPACT_ACTOR_DAYS, 'UPDATE actor_day_state SET compacted_rows = (SELECT count(*) FROM actor_days)']),
      statements(COMPACT_VISIT_DAYS),
      statements(COMPACT_PROPERTY_DAYS),
      (c) =>
        compactPageDays(
          async (sql) => void (await c.run(sql)),
          async (sql) => (await c.runAndReadAll(sql)).getRowObjects(),
        ),
      statements(COMPACT_FORM_DAYS),
      ...CLICK_TABLES.map(
        (t) => (c: DuckDBConnection) =>
          compactClicks(
            t,
            async (sql) => void (await c.run(sql)),
            async (sql) => (await c.runAndReadAll(sql)).getRowObjects(),
          ),
      ),
    ];
    let failed: unknown;
    for (const compact of rollups) {
      if (this.stopped) return false;
      try {
        await this.transaction(compact);
      } catch (err) {
        failed ??= err;
      }
    }
    if (failed) {
      // Not again on every pass: only once the rollup has grown by half.
      this.retryCompactionAt = Math.ceil(total * 1.5);
      throw failed;
    }
    this.retryCompactionAt = 0;
    return true;
  }

  /** Runs `work` in one transaction on the folder's connection, rolled back if it throws. */
  private async transaction<T>(work: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
    const conn = await this.connection();
    await conn.run('BEGIN TRANSACTION');
    try {
      const result = await work(conn);
      await conn.run('COMMIT');
      return result;
    } catch (err) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
}

/**
 * In the caller's transaction: whether the event at the folded rowid is still the one folded there.
 * When it is not (a store restored or copied in another order, or rowids renumbered by a checkpoint
 * after events were deleted), empties both rollups and answers the projects they held, which are
 * then read raw and folded again from the start. One point lookup when the point holds.
 */
async function emptyIfMoved(conn: DuckDBConnection, services: ActorDayServices): Promise<number[]> {
  const [state] = (await conn.runAndReadAll('SELECT through_rowid AS w, through_uuid::VARCHAR AS folded FROM actor_day_state')).getRowObjects();
  const through = Number(state!.w);
  if (through < 0) return [];
  const [event] = (await conn.runAndReadAll('SELECT uuid::VARCHAR AS stored FROM events WHERE rowid = $w', { w: BigInt(through) })).getRowObjects();
  if (event?.stored === state!.folded) return [];
  services.log.warn({ through_rowid: through }, 'actor days do not match the stored events (rowids changed: a restored or copied store, or deleted events compacted); folding them again');
  const held = (await conn.runAndReadAll('SELECT project_id FROM actor_day_zones')).getRows().map(([id]) => Number(id));
  for (const t of [...PROJECT_TABLES, 'property_day_keys']) await conn.run(`DELETE FROM ${t}`);
  await conn.run('UPDATE actor_day_state SET through_rowid = -1, through_uuid = NULL, compacted_rows = 0');
  return held;
}

/**
 * Drops a project's rollup rows in the caller's transaction (one that deletes some of its events):
 * until the next pass folds it again from the start, the project is read from raw events alone.
 */
export async function forgetFolded(conn: DuckDBConnection, projectId: number): Promise<void> {
  for (const table of PROJECT_TABLES) await conn.run(`DELETE FROM ${table} WHERE project_id = $1`, [projectId]);
}

/** Where the rollups stand for a project that has folded rows: the zone of its days and the folded rowid. */
export interface FoldedProject {
  projectId: number;
  timezone: string;
  through: number;
}

/**
 * In the caller's transaction, before it deletes some of a project's events: the zone its rows are
 * folded in and the folded rowid; undefined when the project has no folded rows.
 */
export async function foldedProject(conn: DuckDBConnection, projectId: number): Promise<FoldedProject | undefined> {
  const [row] = (
    await conn.runAndReadAll('SELECT z.timezone, s.through_rowid AS through FROM actor_day_zones z, actor_day_state s WHERE z.project_id = $1 AND s.through_rowid >= 0', [projectId])
  ).getRowObjects();
  return row ? { projectId, timezone: String(row.timezone), through: Number(row.through) } : undefined;
}

/**
 * In the caller's transaction, once it deleted some events of the project, all of them on `days`
 * (local dates in the folded zone): folds the project's rows of those days again from the events
 * still stored up to the folded point, and leaves every other row as it is. The rows come out as a
 * fold from scratch would make them (a run is cut at local midnight, so a day's runs are the
 * day's own), except that the project's visit runs lose their compacted visit. When the folded
 * event itself was deleted, the folded point moves back to the newest event still stored before
 * it: every event in between was deleted, so the rollup holds the same.
 */
export async function refoldDays(conn: DuckDBConnection, folded: FoldedProject, days: readonly string[]): Promise<void> {
  if (days.length === 0) return;
  const sorted = [...days].sort();
  const DAY = 86_400_000;
  // Every instant of a local day lies within a day either side of the same UTC date.
  const bounds = {
    lo: new Date(Date.parse(`${sorted[0]}T00:00:00Z`) - DAY).toISOString(),
    hi: new Date(Date.parse(`${sorted.at(-1)}T00:00:00Z`) + 2 * DAY).toISOString(),
    days: listValue(sorted),
    upto: BigInt(folded.through),
  };
  const boundTypes = { lo: VARCHAR, hi: VARCHAR, days: LIST(VARCHAR) };
  const onDays = 'e.rowid <= $upto AND e.ts >= CAST($lo AS TIMESTAMPTZ) AND e.ts < CAST($hi AS TIMESTAMPTZ) AND CAST(timezone(z.timezone, e.ts) AS DATE) IN (SELECT CAST(unnest($days) AS DATE))';
  for (const t of DAY_TABLES) {
    await conn.run(
      `DELETE FROM ${t} WHERE project_id = $project AND day IN (SELECT CAST(unnest($days) AS DATE))`,
      { project: folded.projectId, days: bounds.days },
      { project: INTEGER, days: LIST(VARCHAR) },
    );
  }
  const project = projectLists([{ id: folded.projectId, timezone: folded.timezone }]);
  const params = { ...project, ...bounds };
  const types = { ...projectTypes, ...boundTypes };
  await conn.run(`INSERT INTO actor_days ${foldActorDays(onDays)}`, params, types);
  await conn.run(`INSERT INTO page_days ${foldPageDays(onDays)}`, params, types);
  await conn.run(`INSERT INTO form_days ${foldFormDays(onDays)}`, params, types);
  await conn.run(`INSERT INTO visit_days ${foldVisitDays(onDays)}`, params, types);
  // A visit that crossed those days may now be two, or none: the project's runs are joined when read until compacted.
  await conn.run(FORGET_VISITS, { project: folded.projectId }, { project: INTEGER });
  for (const t of CLICK_TABLES) await conn.run(`INSERT INTO ${t} ${foldClicks(t, onDays)}`, params, types);
  const keys = (await conn.runAndReadAll('SELECT key FROM property_day_keys')).getRows().map(([k]) => String(k));
  if (keys.length > 0) await conn.run(`INSERT INTO property_days ${foldPropertyDays(onDays)}`, { ...params, ...keyLists(keys) }, { ...types, ...keyTypes });
  const [kept] = (await conn.runAndReadAll('SELECT 1 FROM events WHERE rowid = $upto', { upto: bounds.upto })).getRows();
  if (!kept) {
    const [before] = (await conn.runAndReadAll('SELECT max(rowid) AS r, arg_max(uuid, rowid)::VARCHAR AS u FROM events WHERE rowid < $upto', { upto: bounds.upto })).getRowObjects();
    const found = before?.r !== null && before?.r !== undefined;
    await conn.run('UPDATE actor_day_state SET through_rowid = $r, through_uuid = CAST($u AS UUID)', { r: found ? BigInt(Number(before.r)) : -1n, u: found ? String(before.u) : null }, { u: VARCHAR });
  }
}

/**
 * After a checkpoint that compacted deleted events (the caller's, once its deletion is committed):
 * moves the folded point to the rowid the folded event has now. A compaction keeps the rows in
 * order, so the events up to it are still exactly the folded ones, and no fold from scratch follows.
 */
export async function followFoldedPoint(conn: DuckDBConnection): Promise<void> {
  const [state] = (await conn.runAndReadAll('SELECT through_rowid AS w, through_uuid::VARCHAR AS u FROM actor_day_state WHERE through_rowid >= 0')).getRowObjects();
  if (!state) return;
  const w = BigInt(Number(state.w));
  const [now] = (await conn.runAndReadAll('SELECT rowid AS r FROM events WHERE rowid <= $w AND uuid = CAST($u AS UUID)', { w, u: String(state.u) })).getRowObjects();
  if (now && BigInt(Number(now.r)) !== w) await conn.run('UPDATE actor_day_state SET through_rowid = $r', { r: BigInt(Number(now.r)) });
}

const projectTypes = { ids: LIST(INTEGER), zones: LIST(VARCHAR) };
const keyTypes = { keys: LIST(VARCHAR), paths: LIST(VARCHAR) };

function keyLists(keys: string[]): { keys: ReturnType<typeof listValue>; paths: ReturnType<typeof listValue> } {
  return { keys: listValue(keys), paths: listValue(keys.map(propsPath)) };
}

function projectLists(projects: LiveProject[]): { ids: ReturnType<typeof listValue>; zones: ReturnType<typeof listValue> } {
  return { ids: listValue(projects.map((p) => p.id)), zones: listValue(projects.map((p) => p.timezone)) };
}

function liveProjects(services: ActorDayServices): LiveProject[] {
  return services.meta.prepare('SELECT id, timezone FROM projects WHERE deleted_at IS NULL').all() as LiveProject[];
}

/** The folder of these services (started by workers.ts in a running server, stopped at its shutdown). */
export function actorDayFolder(services: ActorDayServices): ActorDayFolder {
  return services.workers.actorDays;
}

// Dashboards of a project and their tiles, stored in SQLite: a grid of insight and text tiles with a
// dashboard-wide date range and filters. Checking filters and dates is the routes'; what the tiles'
// insights answer is savedQueries.ts's and the routes'.

import type { MetaDb } from '../store/sqlite.js';
import { NotFoundError, ValidationError } from '../ground/errors.js';
import type { FilterItem } from '../engine/filters.js';
import { authorColumns, authorOf, type Authored } from './authors.js';
import { findInsight, type Insight } from './insights.js';
import type { Overrides } from './savedQueries.js';

export const DASHBOARD_LIMITS = { name: 200, description: 2000, per_project: 100, tiles: 40, text: 4000, width: 12, height: 8 } as const;
export const TILE_DEFAULTS = { width: 6, height: 3 } as const;

export interface DashboardInput extends Overrides {
  name: string;
  description: string | null;
}

export interface Tile {
  id: number;
  /** Its place in the dashboard's order, from 0. */
  position: number;
  width: number;
  height: number;
  kind: 'insight' | 'text';
  insight: Insight | null;
  text: string | null;
}

export interface DashboardSummary extends DashboardInput, Authored {
  tile_count: number;
}

export interface Dashboard extends Omit<DashboardSummary, 'tile_count'> {
  tiles: Tile[];
}

export interface LayoutItem {
  id: number;
  width: number;
  height: number;
}

const SELECT = `SELECT d.id, d.project_id, d.name, d.description, d.date_from, d.date_to, d.date_range, d.filters, d.created_at, d.updated_at,
  (SELECT count(*) FROM dashboard_tiles t WHERE t.dashboard_id = d.id) AS tile_count, ${authorColumns('cu')}, ${authorColumns('uu')}
  FROM dashboards d LEFT JOIN users cu ON cu.id = d.created_by LEFT JOIN users uu ON uu.id = d.updated_by`;

type Row = Record<string, unknown>;

interface TileRow {
  id: number;
  width: number;
  height: number;
  insight_id: number | null;
  text: string | null;
}

function rowOverrides(row: Row): Overrides {
  return {
    date_from: row.date_from as string | null,
    date_to: row.date_to as string | null,
    date_range: row.date_range as string | null,
    filters: row.filters === null ? null : (JSON.parse(row.filters as string) as FilterItem[]),
  };
}

function summaryOf(row: Row): DashboardSummary {
  return {
    id: row.id as number,
    project_id: row.project_id as number,
    name: row.name as string,
    description: row.description as string | null,
    ...rowOverrides(row),
    created_by: authorOf(row, 'cu'),
    updated_by: authorOf(row, 'uu'),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
    tile_count: row.tile_count as number,
  };
}

/** Tiles in order; positions are presented as ranks, so a tile removed with its insight leaves no gap. */
function tileRows(db: MetaDb, dashboardId: number): TileRow[] {
  return db.prepare('SELECT id, width, height, insight_id, text FROM dashboard_tiles WHERE dashboard_id = ? ORDER BY position, id').all(dashboardId) as TileRow[];
}

function tileOf(db: MetaDb, projectId: number, row: TileRow, position: number): Tile {
  const insight = row.insight_id === null ? null : (findInsight(db, projectId, row.insight_id) ?? null);
  return { id: row.id, position, width: row.width, height: row.height, kind: row.insight_id === null ? 'text' : 'insight', insight, text: row.text };
}

/** By name, then id. */
export function listDashboards(db: MetaDb, projectId: number): DashboardSummary[] {
  return (db.prepare(`${SELECT} WHERE d.project_id = ? ORDER BY d.name, d.id`).all(projectId) as Row[]).map(summaryOf);
}

export function getDashboard(db: MetaDb, projectId: number, id: number): Dashboard {
  const row = db.prepare(`${SELECT} WHERE d.project_id = ? AND d.id = ?`).get(projectId, id) as Row | undefined;
  if (!row) throw new NotFoundError('dashboard not found');
  const { tile_count: _count, ...dashboard } = summaryOf(row);
  return { ...dashboard, tiles: tileRows(db, id).map((t, i) => tileOf(db, projectId, t, i)) };
}

export function createDashboard(db: MetaDb, projectId: number, userId: number, input: DashboardInput, now: Date): Dashboard {
  const at = now.toISOString();
  const id = db.transaction(() => {
    const { n } = db.prepare('SELECT count(*) AS n FROM dashboards WHERE project_id = ?').get(projectId) as { n: number };
    if (n >= DASHBOARD_LIMITS.per_project) {
      throw new ValidationError(`a project holds at most ${DASHBOARD_LIMITS.per_project} dashboards; delete one first`, 'name', { limit: DASHBOARD_LIMITS.per_project });
    }
    return db
      .prepare(
        `INSERT INTO dashboards (project_id, name, description, date_from, date_to, date_range, filters, created_by, updated_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(projectId, input.name, input.description, input.date_from, input.date_to, input.date_range, filtersText(input.filters), userId, userId, at, at).lastInsertRowid;
  })();
  return getDashboard(db, projectId, Number(id));
}

/** `input` is the dashboard's whole new state (the route merges a PATCH into it); `layout`, when given, lists every tile. */
export function updateDashboard(db: MetaDb, projectId: number, id: number, userId: number, input: DashboardInput, layout: LayoutItem[] | undefined, now: Date): Dashboard {
  db.transaction(() => {
    getDashboard(db, projectId, id);
    db.prepare('UPDATE dashboards SET name = ?, description = ?, date_from = ?, date_to = ?, date_range = ?, filters = ?, updated_by = ?, updated_at = ? WHERE id = ?').run(
      input.name,
      input.description,
      input.date_from,
      input.date_to,
      input.date_range,
      filtersText(input.filters),
      userId,
      now.toISOString(),
      id,
    );
    if (layout) arrange(db, id, layout);
  })();
  return getDashboard(db, projectId, id);
}

/** Reorders and resizes: the layout must name every tile of the dashboard exactly once. */
function arrange(db: MetaDb, dashboardId: number, layout: LayoutItem[]): void {
  const ids = new Set(tileRows(db, dashboardId).map((t) => t.id));
  const seen = new Set<number>();
  layout.forEach((item, i) => {
    if (!ids.has(item.id)) throw new ValidationError(`layout[${i}]: tile ${item.id} is not on this dashboard`, `layout[${i}].id`);
    if (seen.has(item.id)) throw new ValidationError(`layout[${i}]: tile ${item.id} is listed twice`, `layout[${i}].id`);
    seen.add(item.id);
  });
  const missing = [...ids].filter((tileId) => !seen.has(tileId));
  if (missing.length > 0) throw new ValidationError(`layout leaves out tile ${missing.join(', ')}; list every tile of the dashboard once`, 'layout', { missing });
  const place = db.prepare('UPDATE dashboard_tiles SET position = ?, width = ?, height = ? WHERE id = ?');
  layout.forEach((item, i) => place.run(i, item.width, item.height, item.id));
}

/** Its tiles and share links go with it (foreign keys); its insights stay. */
export function deleteDashboard(db: MetaDb, projectId: number, id: number): Dashboard {
  const dashboard = getDashboard(db, projectId, id);
  db.prepare('DELETE FROM dashboards WHERE id = ?').run(id);
  return dashboard;
}

function touch(db: MetaDb, dashboardId: number, userId: number, now: Date): void {
  db.prepare('UPDATE dashboards SET updated_by = ?, updated_at = ? WHERE id = ?').run(userId, now.toISOString(), dashboardId);
}

/**
 * What an insight tile answers: its insight and the dashboard's overrides, read without the other
 * tiles (a dashboard's tiles are asked for all at once). Undefined for a text tile or no such tile.
 */
export function tileInsight(db: MetaDb, projectId: number, dashboardId: number, tileId: number): { insight: Insight; overrides: Overrides } | undefined {
  const row = db
    .prepare(
      `SELECT d.date_from, d.date_to, d.date_range, d.filters, t.insight_id FROM dashboard_tiles t JOIN dashboards d ON d.id = t.dashboard_id
        WHERE d.project_id = ? AND d.id = ? AND t.id = ? AND t.insight_id IS NOT NULL`,
    )
    .get(projectId, dashboardId, tileId) as (Row & { insight_id: number }) | undefined;
  const insight = row && findInsight(db, projectId, row.insight_id);
  if (!row || !insight) return undefined;
  return { insight, overrides: rowOverrides(row) };
}

export function getTile(db: MetaDb, projectId: number, dashboardId: number, tileId: number): Tile {
  const tile = getDashboard(db, projectId, dashboardId).tiles.find((t) => t.id === tileId);
  if (!tile) throw new NotFoundError('tile not found');
  return tile;
}

/** Appended last. `content` is an insight of the project (checked by the caller) or a text. */
export function addTile(db: MetaDb, projectId: number, dashboardId: number, userId: number, content: { insight_id: number } | { text: string }, size: Omit<LayoutItem, 'id'>, now: Date): Tile {
  const id = db.transaction(() => {
    const rows = tileRows(db, getDashboard(db, projectId, dashboardId).id);
    if (rows.length >= DASHBOARD_LIMITS.tiles) {
      throw new ValidationError(`a dashboard holds at most ${DASHBOARD_LIMITS.tiles} tiles; remove one first`, 'insight_id' in content ? 'insight_id' : 'text', { limit: DASHBOARD_LIMITS.tiles });
    }
    const { next } = db.prepare('SELECT coalesce(max(position) + 1, 0) AS next FROM dashboard_tiles WHERE dashboard_id = ?').get(dashboardId) as { next: number };
    touch(db, dashboardId, userId, now);
    return db
      .prepare('INSERT INTO dashboard_tiles (dashboard_id, position, width, height, insight_id, text) VALUES (?, ?, ?, ?, ?, ?)')
      .run(dashboardId, next, size.width, size.height, 'insight_id' in content ? content.insight_id : null, 'text' in content ? content.text : null).lastInsertRowid;
  })();
  return getTile(db, projectId, dashboardId, Number(id));
}

export function updateTile(db: MetaDb, projectId: number, dashboardId: number, tileId: number, userId: number, changes: { text?: string; width?: number; height?: number }, now: Date): Tile {
  const tile = getTile(db, projectId, dashboardId, tileId);
  if (changes.text !== undefined && tile.kind !== 'text') throw new ValidationError('an insight tile has no text; only text tiles take one', 'text');
  db.prepare('UPDATE dashboard_tiles SET text = ?, width = ?, height = ? WHERE id = ?').run(changes.text ?? tile.text, changes.width ?? tile.width, changes.height ?? tile.height, tileId);
  touch(db, dashboardId, userId, now);
  return getTile(db, projectId, dashboardId, tileId);
}

export function deleteTile(db: MetaDb, projectId: number, dashboardId: number, tileId: number, userId: number, now: Date): void {
  getTile(db, projectId, dashboardId, tileId);
  db.prepare('DELETE FROM dashboard_tiles WHERE id = ?').run(tileId);
  touch(db, dashboardId, userId, now);
}

function filtersText(filters: FilterItem[] | null): string | null {
  return filters === null ? null : JSON.stringify(filters);
}

// Saved insights of a project: a name and one analytical query (its kind and body), stored in
// SQLite. The body is checked by savedQueries.ts before it gets here; running it is the routes'.

import type { MetaDb } from '../store/sqlite.js';
import { NotFoundError, ValidationError } from '../ground/errors.js';
import { authorColumns, authorOf, type Authored } from './authors.js';
import type { QueryBody } from './savedQueries.js';

export const INSIGHT_LIMITS = { name: 200, description: 2000, per_project: 500 } as const;

export interface InsightInput {
  name: string;
  description: string | null;
  kind: string;
  query: QueryBody;
  /** A rolling range (rollingRange.ts) that replaces the query's dates when answered; null keeps them. */
  date_range: string | null;
}

export interface Insight extends InsightInput, Authored {
  /** Dashboards with a tile showing it, by name. */
  dashboards: Array<{ id: number; name: string }>;
}

const SELECT = `SELECT i.id, i.project_id, i.name, i.description, i.kind, i.query, i.date_range, i.created_at, i.updated_at, ${authorColumns('cu')}, ${authorColumns('uu')}
  FROM insights i LEFT JOIN users cu ON cu.id = i.created_by LEFT JOIN users uu ON uu.id = i.updated_by`;

type Row = Record<string, unknown>;

function fromRow(row: Row, dashboards: Insight['dashboards']): Insight {
  return {
    id: row.id as number,
    project_id: row.project_id as number,
    name: row.name as string,
    description: row.description as string | null,
    kind: row.kind as string,
    query: JSON.parse(row.query as string) as QueryBody,
    date_range: row.date_range as string | null,
    created_by: authorOf(row, 'cu'),
    updated_by: authorOf(row, 'uu'),
    created_at: row.created_at as string,
    updated_at: row.updated_at as string,
    dashboards,
  };
}

/** Dashboards showing each of the project's insights, by insight id. */
function dashboardsByInsight(db: MetaDb, projectId: number, insightId?: number): Map<number, Insight['dashboards']> {
  const rows = db
    .prepare(
      `SELECT DISTINCT t.insight_id, d.id, d.name FROM dashboard_tiles t JOIN dashboards d ON d.id = t.dashboard_id
        WHERE d.project_id = ? AND (? IS NULL OR t.insight_id = ?) AND t.insight_id IS NOT NULL ORDER BY d.name, d.id`,
    )
    .all(projectId, insightId ?? null, insightId ?? null) as Array<{ insight_id: number; id: number; name: string }>;
  const out = new Map<number, Insight['dashboards']>();
  for (const r of rows) {
    const list = out.get(r.insight_id) ?? [];
    list.push({ id: r.id, name: r.name });
    out.set(r.insight_id, list);
  }
  return out;
}

export function findInsight(db: MetaDb, projectId: number, id: number): Insight | undefined {
  const row = db.prepare(`${SELECT} WHERE i.project_id = ? AND i.id = ?`).get(projectId, id) as Row | undefined;
  return row && fromRow(row, dashboardsByInsight(db, projectId, id).get(id) ?? []);
}

export function getInsight(db: MetaDb, projectId: number, id: number): Insight {
  const insight = findInsight(db, projectId, id);
  if (!insight) throw new NotFoundError('insight not found');
  return insight;
}

/** Most recently changed first. */
export function listInsights(db: MetaDb, projectId: number, kind?: string): Insight[] {
  const rows = db.prepare(`${SELECT} WHERE i.project_id = ? AND (? IS NULL OR i.kind = ?) ORDER BY i.updated_at DESC, i.id DESC`).all(projectId, kind ?? null, kind ?? null) as Row[];
  const dashboards = dashboardsByInsight(db, projectId);
  return rows.map((r) => fromRow(r, dashboards.get(r.id as number) ?? []));
}

export function createInsight(db: MetaDb, projectId: number, userId: number, input: InsightInput, now: Date): Insight {
  const at = now.toISOString();
  const id = db.transaction(() => {
    const { n } = db.prepare('SELECT count(*) AS n FROM insights WHERE project_id = ?').get(projectId) as { n: number };
    if (n >= INSIGHT_LIMITS.per_project) {
      throw new ValidationError(`a project holds at most ${INSIGHT_LIMITS.per_project} saved insights; delete one first`, 'name', { limit: INSIGHT_LIMITS.per_project });
    }
    return db
      .prepare('INSERT INTO insights (project_id, name, description, kind, query, date_range, created_by, updated_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(projectId, input.name, input.description, input.kind, JSON.stringify(input.query), input.date_range, userId, userId, at, at).lastInsertRowid;
  })();
  return getInsight(db, projectId, Number(id));
}

export function updateInsight(db: MetaDb, projectId: number, id: number, userId: number, changes: Partial<Omit<InsightInput, 'kind'>>, now: Date): Insight {
  const current = getInsight(db, projectId, id);
  db.prepare('UPDATE insights SET name = ?, description = ?, query = ?, date_range = ?, updated_by = ?, updated_at = ? WHERE project_id = ? AND id = ?').run(
    changes.name ?? current.name,
    changes.description === undefined ? current.description : changes.description,
    JSON.stringify(changes.query ?? current.query),
    changes.date_range === undefined ? current.date_range : changes.date_range,
    userId,
    now.toISOString(),
    projectId,
    id,
  );
  return getInsight(db, projectId, id);
}

/** Its tiles and share links go with it (foreign keys). */
export function deleteInsight(db: MetaDb, projectId: number, id: number): Insight {
  const insight = getInsight(db, projectId, id);
  db.prepare('DELETE FROM insights WHERE project_id = ? AND id = ?').run(projectId, id);
  return insight;
}

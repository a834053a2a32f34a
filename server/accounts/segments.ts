// Saved segments: named filter lists per project, stored in SQLite. Queries load them by id to expand
// `segment:<id>` filter items; the HTTP surface is segmentsDomain.ts.

import type { MetaDb } from '../store/sqlite.js';
import { ConflictError, ValidationError } from '../ground/errors.js';
import type { Filter } from '../engine/filters.js';

export interface SavedSegment {
  id: number;
  project_id: number;
  name: string;
  filters: Filter[];
  created_at: string;
  updated_at: string;
}

interface SegmentRow {
  id: number;
  project_id: number;
  name: string;
  filters: string;
  created_at: string;
  updated_at: string;
}

const COLUMNS = 'id, project_id, name, filters, created_at, updated_at';

function fromRow(row: SegmentRow): SavedSegment {
  return { ...row, filters: JSON.parse(row.filters) as Filter[] };
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function nameTaken(name: string): ConflictError {
  return new ConflictError(`a segment named ${JSON.stringify(name)} already exists in this project`, 'segment_name_taken', { field: 'name' });
}

export function createSegment(db: MetaDb, projectId: number, input: { name: string; filters: Filter[] }, userId: number, now: Date): SavedSegment {
  const at = now.toISOString();
  try {
    const info = db
      .prepare('INSERT INTO saved_segments (project_id, name, filters, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(projectId, input.name, JSON.stringify(input.filters), userId, at, at);
    return getSegment(db, projectId, Number(info.lastInsertRowid))!;
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

export function getSegment(db: MetaDb, projectId: number, id: number): SavedSegment | undefined {
  const row = db.prepare(`SELECT ${COLUMNS} FROM saved_segments WHERE project_id = ? AND id = ?`).get(projectId, id) as SegmentRow | undefined;
  return row && fromRow(row);
}

/** One page ordered by id, after `afterId`. */
export function listSegments(db: MetaDb, projectId: number, afterId: number, limit: number): SavedSegment[] {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM saved_segments WHERE project_id = ? AND id > ? ORDER BY id LIMIT ?`).all(projectId, afterId, limit) as SegmentRow[];
  return rows.map(fromRow);
}

export function updateSegment(db: MetaDb, projectId: number, id: number, changes: { name?: string; filters?: Filter[] }, now: Date): SavedSegment | undefined {
  const current = getSegment(db, projectId, id);
  if (!current) return undefined;
  const name = changes.name ?? current.name;
  try {
    db.prepare('UPDATE saved_segments SET name = ?, filters = ?, updated_at = ? WHERE project_id = ? AND id = ?').run(
      name,
      JSON.stringify(changes.filters ?? current.filters),
      now.toISOString(),
      projectId,
      id,
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(name);
    throw err;
  }
  return getSegment(db, projectId, id);
}

export function deleteSegment(db: MetaDb, projectId: number, id: number): boolean {
  return db.prepare('DELETE FROM saved_segments WHERE project_id = ? AND id = ?').run(projectId, id).changes > 0;
}

/** The filters of each named segment; a segment missing from the project is 422 (a bad filter value). */
export function loadSegmentFilters(db: MetaDb, projectId: number, ids: readonly number[]): Map<number, Filter[]> {
  const out = new Map<number, Filter[]>();
  for (const id of new Set(ids)) {
    const segment = getSegment(db, projectId, id);
    if (!segment) throw new ValidationError(`filters name segment:${id}, which does not exist in this project`, 'filters');
    out.set(id, segment.filters);
  }
  return out;
}

// What every per-day rollup read shares: its options, and where the folded rows end and the raw
// events begin for one project read in its zone (see actorDayFolder.ts).

import type { ActorForm } from '../identity.js';
import { dateValue, type Binder } from '../sql.js';

export interface DayScanOptions {
  projectId: number;
  timezone: string;
  /** First local date read (inclusive); omitted reads all history. */
  from?: string;
  /** Last local date read (inclusive). */
  to: string;
  /** An event name, or `any`. */
  event: string;
  /** Actors by key (the default) or by id. */
  actors?: ActorForm;
}

/**
 * Where a rollup's rows end and the raw events begin, for one project read in its zone: the rollup
 * rows count only if they were folded in this zone (and `held`, when given, holds), and then the
 * raw events are those past the folded rowid; otherwise every raw event is read.
 */
export function foldedPoint(b: Binder, o: DayScanOptions, held?: string): { project: string; rollupWhere: string[]; rawWhere: string } {
  const project = b.bind(o.projectId);
  const valid = [`EXISTS (SELECT 1 FROM actor_day_zones z WHERE z.project_id = ${project} AND z.timezone = ${b.bind(o.timezone)})`, ...(held ? [held] : [])].join(' AND ');
  const rollupWhere = [`d.day <= ${dateValue(b, o.to)}`, valid];
  if (o.from !== undefined) rollupWhere.push(`d.day >= ${dateValue(b, o.from)}`);
  return { project, rollupWhere, rawWhere: `e.rowid > (SELECT CASE WHEN ${valid} THEN through_rowid ELSE -1 END FROM actor_day_state)` };
}

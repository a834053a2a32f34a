// The job that brings a rule's derived events in line with the rule as it is when the job runs:
// an active rule's events that no longer match it are deleted and those missing derived over all
// history, a disabled or deleting rule's are deleted, and a deleting rule is then removed. Reading
// the rule at run time makes the job safe to run twice and in any order with the changes that
// queued it. Deleting events moves
// the project's daily rollups out of step, so they are dropped in the same transaction and folded
// again in the background (see server/engine/rollups/actorDayFolder.ts), as for a forms purge.

import type { Services } from '../http/services.js';
import type { Job } from '../store/jobs.js';
import { ingestWriter } from '../ingest/groupWriter.js';
import { actorDayFolder } from '../engine/rollups/actorDayFolder.js';
import { statementsOf } from '../engine/statements.js';
import { matchOf } from './matchSql.js';
import { storedRule } from './rules.js';

export interface SyncResult {
  rule_id: number;
  deleted_events: number;
  derived_events: number;
}

export async function syncRule(services: Services, job: Job): Promise<SyncResult> {
  const { meta } = services;
  const link = meta.prepare('SELECT rule_id FROM labeled_event_jobs WHERE job_id = ?').get(job.id) as { rule_id: number } | undefined;
  if (!link) throw new Error(`job ${job.id} names no labeled-event rule`);
  // Events acknowledged before now are loaded first, so the job sees them whatever the rule was then.
  await ingestWriter(services).loaded();
  const rule = storedRule(meta, link.rule_id);
  const projectId = job.project_id!;
  const deriving = rule?.state === 'active' ? { ...matchOf(rule), id: rule.id, event_name: rule.event_name } : null;
  const result = await actorDayFolder(services).exclusive(() =>
    services.events.useWriter(
      async (conn) => {
        try {
          const { deleted, labeled } = await statementsOf(services.events).jobs.syncDerived(conn, projectId, link.rule_id, deriving, services.config.query_timeout_ms);
          return { rule_id: link.rule_id, deleted_events: deleted, derived_events: labeled };
        } finally {
          services.events.changed([projectId]);
        }
      },
      { changes: 'reported' },
    ),
  );
  meta.prepare('UPDATE labeled_event_jobs SET derived_events = ? WHERE job_id = ?').run(result.derived_events, job.id);
  if (rule?.state === 'deleting') meta.prepare("DELETE FROM labeled_event_rules WHERE id = ? AND state = 'deleting'").run(rule.id);
  services.log.info({ job_id: job.id, project_id: projectId, ...result }, 'labeled-event rule synced');
  return result;
}

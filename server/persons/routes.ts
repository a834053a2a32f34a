// HTTP routes of person requests: a person's page (analyst+ with actor_drilldown, like the other
// per-person views), the download of their data and their deletion (admin+, never plan-gated).
// Logic lives in personSummary.ts, personExport.ts and personDeletion.ts.

import type { Request } from 'express';
import type { Domain } from '../http/domain.js';
import { NotFoundError } from '../ground/errors.js';
import { project } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { DELETION, PERSON, PERSON_EXPORT, personsOpenapi } from './personsOpenapi.js';
import { personSummary } from './personSummary.js';
import { exportPerson } from './personExport.js';
import { getPersonDeletion, requestPersonDeletion } from './personDeletion.js';

export const personsDomain: Domain = {
  name: 'persons',
  openapi: personsOpenapi,
  mount(routes, services) {
    const admin = project('admin');
    const key = (req: Request) => String(req.valid.params.key);
    /** The audit entry of a person request: who asked and about which project, never the person's ids. */
    const audit = (req: Request, action: string, details: Record<string, unknown> = {}) =>
      recordAudit(services, { actor_user_id: req.auth!.userId, org_id: req.project!.org_id, action, target: String(req.project!.id), outcome: 'success', details });

    routes.get(PERSON, project('analyst', { entitlements: ['actor_drilldown'] }), async (req, res) => {
      res.json(await personSummary(services, req.project!.id, key(req)));
    });
    routes.delete(PERSON, admin, async (req, res) => {
      const job = await requestPersonDeletion(services, req.project!.id, key(req), req.auth!.userId);
      audit(req, 'project.person.delete', { job_id: job.id, ids: job.ids });
      res.status(202).json(job);
    });
    routes.post(PERSON_EXPORT, admin, async (req, res) => {
      await exportPerson(services, res, req.project!.id, key(req), () => audit(req, 'project.person.export'));
    });
    routes.get(DELETION, admin, (req, res) => {
      const job = getPersonDeletion(services.meta, req.project!.id, Number(req.valid.params.jobID));
      if (!job) throw new NotFoundError('deletion job not found');
      res.json(job);
    });
  },
};

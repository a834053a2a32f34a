// HTTP surface of form-data purges (see formPurge.ts), admins and owners only: queue one with an
// explicit confirmation header, list the latest, show one. Mounting it also lets the job runner
// run purge jobs, those a stopped server left behind included.

import type { RequestHandler } from 'express';
import type { Domain } from '../http/domain.js';
import { AppError, NotFoundError } from '../ground/errors.js';
import { errors, jsonResponse, ref, type JsonSchema, type Operation, type Parameter } from '../http/openapi.js';
import { project } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { FORM_EVENTS, FORM_PURGES_LISTED, getFormPurge, listFormPurges, requestFormPurge } from './formPurge.js';

const BASE = '/api/v1/projects/{id}/behavior/forms/purge';
const ONE = `${BASE}/{jobID}`;
const CONFIRM = 'X-Confirm-Purge';

const timestamp = (description: string): JsonSchema => ({ type: ['string', 'null'], format: 'date-time', description });

const schemas: Record<string, JsonSchema> = {
  FormPurgeJob: {
    type: 'object',
    required: ['id', 'state', 'deleted_events', 'error', 'requested_by', 'created_at', 'started_at', 'finished_at'],
    properties: {
      id: { type: 'integer', format: 'int64' },
      state: { enum: ['queued', 'running', 'succeeded', 'failed'], description: 'queued → running → succeeded or failed; a job running when the server stopped is queued again at its start' },
      deleted_events: { type: ['integer', 'null'], minimum: 0, description: 'events deleted; null until the job succeeded' },
      error: { type: ['string', 'null'], description: 'why the job failed; null otherwise' },
      requested_by: { type: ['integer', 'null'], description: 'id of the user who asked for the purge' },
      created_at: { type: 'string', format: 'date-time' },
      started_at: timestamp('when the job last started; null while it never ran'),
      finished_at: timestamp('null until the job succeeded or failed'),
    },
  },
  FormPurgeJobList: {
    type: 'object',
    required: ['items', 'next_cursor'],
    properties: {
      items: { type: 'array', maxItems: FORM_PURGES_LISTED, items: ref('FormPurgeJob'), description: `the latest ${FORM_PURGES_LISTED} jobs, newest first` },
      next_cursor: { type: 'null', description: 'older jobs are not listed' },
    },
  },
};

const projectId: Parameter = { name: 'id', in: 'path', required: true, description: 'project id', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } };
const jobId: Parameter = { name: 'jobID', in: 'path', required: true, description: 'purge job id', schema: { type: 'integer', format: 'int64', minimum: 1 } };
const confirm: Parameter = { name: CONFIRM, in: 'header', required: true, description: 'must be `true`: the purge cannot be undone', schema: { enum: ['true'] } };
const op = (parameters: Parameter[], o: Omit<Operation, 'tags' | 'security' | 'parameters'>): Operation => ({ ...o, parameters, tags: ['behavior'], security: [{ accessToken: [] }] });

/** Like a malformed request, a missing confirmation is answered before the caller's role is looked at. */
const confirmed: RequestHandler = (req, _res, next) => {
  if (req.get(CONFIRM) !== 'true') {
    throw new AppError(422, 'confirmation_required', `a purge cannot be undone: send the header ${CONFIRM}: true to confirm it`, { header: CONFIRM });
  }
  next();
};

export const formPurgeDomain: Domain = {
  name: 'form-purge',
  openapi: {
    schemas,
    paths: {
      [BASE]: {
        get: op([projectId], {
          operationId: 'listFormPurges',
          summary: `The latest ${FORM_PURGES_LISTED} form-data purge jobs of the project, newest first (admin+)`,
          responses: { '200': jsonResponse('the jobs', ref('FormPurgeJobList')), ...errors(401, 403, 404, 429) },
        }),
        post: op([projectId, confirm], {
          operationId: 'purgeFormData',
          summary: 'Delete all collected form-interaction data of the project (admin+), as a background job',
          description: `Queues a job deleting every ${FORM_EVENTS.join(', ')} event of the project, all time, and what is derived from them (daily rollups are folded again, cached answers drop). While a job of the project is queued or running, answers that job instead of queueing another. Events arriving after the job ran are kept: turn \`autocapture_forms\` off first. Without \`${CONFIRM}: true\`, 422 \`confirmation_required\`. Not plan-gated.`,
          responses: { '202': jsonResponse('the new job, or the one already queued or running', ref('FormPurgeJob')), ...errors(401, 403, 404, 422, 429) },
        }),
      },
      [ONE]: {
        get: op([projectId, jobId], {
          operationId: 'getFormPurge',
          summary: 'One form-data purge job of the project (admin+)',
          responses: { '200': jsonResponse('the job', ref('FormPurgeJob')), ...errors(400, 401, 403, 404, 429) },
        }),
      },
    },
  },
  mount(routes, services) {
    routes.get(BASE, project('admin'), (req, res) => {
      res.json({ items: listFormPurges(services.meta, req.project!.id), next_cursor: null });
    });

    routes.post(BASE, project('admin'), confirmed, (req, res) => {
      const project = req.project!;
      const { job, created } = requestFormPurge(services, project.id, req.auth!.userId);
      if (created) {
        recordAudit(services, {
          actor_user_id: req.auth!.userId,
          org_id: project.org_id,
          action: 'project.forms.purge',
          target: String(project.id),
          outcome: 'success',
          details: { job_id: job.id },
        });
      }
      res.status(202).json(job);
    });

    routes.get(ONE, project('admin'), (req, res) => {
      const job = getFormPurge(services.meta, req.project!.id, Number(req.valid.params.jobID));
      if (!job) throw new NotFoundError('purge job not found');
      res.json(job);
    });
  },
};

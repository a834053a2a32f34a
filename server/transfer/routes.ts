// HTTP surface of imports and exports (admins and owners): upload a file to import and follow or
// cancel the job; start an export and fetch its file through the signed link. Mounting it lets the
// job runner run both kinds (workers.ts registers them).

import { createReadStream, existsSync } from 'node:fs';
import type { Domain } from '../http/domain.js';
import { AppError, ForbiddenError, NotFoundError } from '../ground/errors.js';
import { project, type Access } from '../access/access.js';
import { recordAudit } from '../audit/recordAudit.js';
import { getProject } from '../accounts/projects.js';
import { DOWNLOAD, EXPORT, EXPORTS, IMPORT, IMPORTS, transferOpenapi } from './transferOpenapi.js';
import { checkImport, saveUpload, startExport, startImport } from './startTransfer.js';
import { findTransfer, listTransfers, requestCancel, transferRow, type Direction } from './transferJobs.js';
import { presentExport, presentImport } from './presentTransfer.js';
import { CONTENT_TYPES, exportFile, type ExportOptions } from './exportJob.js';
import { linkProblem } from './exportLink.js';
import { exportExpired } from './transferSweep.js';
import type { ImportFormat } from './importJob.js';
import type { Services } from '../http/services.js';
import type { Request } from 'express';

function found(services: Services, req: Request, direction: Direction, param: string) {
  const row = findTransfer(services.meta, req.project!.id, direction, Number(req.valid.params[param]));
  if (!row) throw new NotFoundError(`${direction} not found`);
  return row;
}

function audit(services: Services, req: Request, action: string, jobId: number): void {
  recordAudit(services, { actor_user_id: req.auth!.userId, org_id: req.project!.org_id, action, target: String(req.project!.id), outcome: 'success', details: { job_id: jobId } });
}

export const transferDomain: Domain = {
  name: 'transfer',
  openapi: transferOpenapi,
  mount(routes, services) {
    const admin = project('admin');
    // Proven by the signature its handler checks: the link works from a browser's address bar or curl.
    const signedLink: Access = { credential: 'signed_link', mutates: false };

    // Listing, reading and cancelling are the same for both directions.
    const sides = [
      { direction: 'import', list: IMPORTS, one: IMPORT, param: 'importID', present: presentImport },
      { direction: 'export', list: EXPORTS, one: EXPORT, param: 'exportID', present: presentExport },
    ] as const;
    for (const { direction, list, one, param, present } of sides) {
      routes.get(list, admin, (req, res) => {
        res.json({ items: listTransfers(services.meta, req.project!.id, direction).map((r) => present(services, r)), next_cursor: null });
      });
      routes.get(one, admin, (req, res) => {
        res.json(present(services, found(services, req, direction, param)));
      });
      routes.delete(one, admin, (req, res) => {
        const row = found(services, req, direction, param);
        requestCancel(services, row.job_id);
        res.json(present(services, transferRow(services.meta, row.job_id)!));
      });
    }

    routes.post(IMPORTS, admin, async (req, res) => {
      const q = req.valid.query as { format: ImportFormat; name?: string; map?: string[] };
      checkImport(q.format, q.map ?? []);
      const upload = await saveUpload(services, req);
      const { id } = startImport(services, { projectId: req.project!.id, userId: req.auth!.userId, format: q.format, files: [{ path: upload.path, name: q.name ?? 'upload' }], map: q.map ?? [] });
      audit(services, req, 'project.events.import', id);
      res.status(202).json(presentImport(services, transferRow(services.meta, id)!));
    });

    routes.post(EXPORTS, admin, (req, res) => {
      const id = startExport(services, req.project!.id, req.auth!.userId, req.body as { format?: string; from?: string | null; to?: string | null });
      audit(services, req, 'project.events.export', id);
      res.status(202).json(presentExport(services, transferRow(services.meta, id)!));
    });

    routes.get(DOWNLOAD, signedLink, (req, res) => {
      const projectId = Number(req.valid.params.id);
      const jobId = Number(req.valid.params.exportID);
      const q = req.valid.query as { expires: number; signature: string };
      const problem = linkProblem(services, projectId, jobId, q.expires, q.signature);
      if (problem) throw new ForbiddenError(problem);
      const row = findTransfer(services.meta, projectId, 'export', jobId);
      const options = row && (JSON.parse(row.options) as ExportOptions);
      const file = options && exportFile(services, jobId, options.format);
      if (row && exportExpired(services, row)) throw new AppError(410, 'export_expired', 'the export has expired and its file was removed: ask for the export again');
      if (!row || !getProject(services.meta, projectId) || row.state !== 'succeeded' || !file || !existsSync(file)) throw new NotFoundError('export not found');
      const name = `${
        getProject(services.meta, projectId)!
          .name.replace(/[^A-Za-z0-9._-]+/g, '-')
          .slice(0, 60) || 'project'
      }-events-${jobId}.${options.format}`;
      res.setHeader('Content-Type', CONTENT_TYPES[options.format]);
      res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
      res.setHeader('Cache-Control', 'no-store');
      createReadStream(file).pipe(res);
    });
  },
};

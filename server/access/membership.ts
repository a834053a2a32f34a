// Step 3 of every access-token route, read fresh on every request: a project or organization
// outside the caller's organization is 404, a role below the minimum is 403, and a personal API key
// restricted to one project reaches nothing else (another project 404, organization-wide 403).

import type { Request, RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../ground/errors.js';
import { atLeast, type Role } from './roles.js';
import type { Scope } from './access.js';
import type { Project } from '../accounts/projects.js';

/** Reads a project by id (accounts/ owns the table; the app hands its reader in). */
export type ProjectReader = (meta: Services['meta'], id: number) => Project | undefined;

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The project named by the `{id}` path parameter, once access to it is established. */
      project?: Project;
    }
  }
}

/** The membership check of one scope; needs the validated path parameter it names (`id`, `orgID`). */
export function membership(services: Services, getProject: ProjectReader, scope: Scope, minimum: Role | undefined): RequestHandler {
  return (req, _res, next) => {
    const auth = req.auth;
    if (!auth) throw new UnauthorizedError();
    if (scope === 'project') {
      const project = getProject(services.meta, Number(req.valid.params.id));
      if (!project || project.org_id !== auth.orgId) throw new NotFoundError('project not found');
      if (auth.apiKey?.projectId != null && auth.apiKey.projectId !== project.id) throw new NotFoundError('project not found');
      requireRole(req, minimum);
      req.project = project;
    } else if (scope === 'org') {
      if (Number(req.valid.params.orgID) !== auth.orgId) throw new NotFoundError('organization not found');
      requireRole(req, minimum);
      requireWholeOrganization(req);
    } else {
      requireRole(req, minimum);
      if (scope === 'member') requireWholeOrganization(req);
    }
    next();
  };
}

function requireRole(req: Request, minimum: Role | undefined): void {
  if (minimum && !atLeast(req.auth!.role, minimum)) throw new ForbiddenError(`this action needs the ${minimum} role or higher`);
}

function requireWholeOrganization(req: Request): void {
  const projectId = req.auth!.apiKey?.projectId;
  if (projectId != null) throw new ForbiddenError(`this API key is restricted to project ${projectId}`);
}

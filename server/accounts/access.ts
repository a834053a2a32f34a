// Authorization for project- and organization-scoped routes, read fresh on every request:
// a project outside the caller's organization is 404; a role below the minimum is 403.

import type { RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../ground/errors.js';
import { atLeast, type Role } from './roles.js';
import { getProject, type Project } from './projects.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The project named by the `{id}` path parameter, once access to it is established. */
      project?: Project;
    }
  }
}

/** Needs `authenticate` before it and a validated integer path parameter `id`. */
export function projectAccess(services: Services, minimum: Role): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) throw new UnauthorizedError();
    const project = getProject(services.meta, Number(req.valid.params.id));
    if (!project || project.org_id !== req.auth.orgId) throw new NotFoundError('project not found');
    if (!atLeast(req.auth.role, minimum)) throw new ForbiddenError(`this action needs the ${minimum} role or higher`);
    req.project = project;
    next();
  };
}

/** Needs `authenticate` before it and a validated integer path parameter `orgID`. */
export function orgAccess(minimum: Role): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) throw new UnauthorizedError();
    if (Number(req.valid.params.orgID) !== req.auth.orgId) throw new NotFoundError('organization not found');
    if (!atLeast(req.auth.role, minimum)) throw new ForbiddenError(`this action needs the ${minimum} role or higher`);
    next();
  };
}

/** Needs `authenticate` before it: for routes scoped to the caller's current organization as a whole. */
export function roleAccess(minimum: Role): RequestHandler {
  return (req, _res, next) => {
    if (!req.auth) throw new UnauthorizedError();
    if (!atLeast(req.auth.role, minimum)) throw new ForbiddenError(`this action needs the ${minimum} role or higher`);
    next();
  };
}

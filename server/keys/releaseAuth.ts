// Authentication of the deploy marker, the one operation a release token may call: a Bearer
// pp_rel_ value that is live. Anything else, access tokens and ingestion keys included, is 401.

import type { RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { NotFoundError, UnauthorizedError } from '../ground/errors.js';
import { bearerToken } from '../ground/bearer.js';
import { parseValue } from './keyValues.js';
import { verifyReleaseToken, type ReleaseToken } from './releaseTokens.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      releaseToken?: ReleaseToken;
    }
  }
}

export function releaseTokenAuth(services: Services): RequestHandler {
  return (req, _res, next) => {
    const value = bearerToken(req.get('authorization'));
    const parsed = value ? parseValue(value) : undefined;
    const token = parsed ? verifyReleaseToken(services, parsed) : undefined;
    if (!token) throw new UnauthorizedError();
    req.releaseToken = token;
    next();
  };
}

/** After validation: the path's project must be the token's own (another project is 404). */
export function releaseTokenProject(): RequestHandler {
  return (req, _res, next) => {
    if (Number(req.valid.params.id) !== req.releaseToken?.project_id) throw new NotFoundError('project not found');
    next();
  };
}

// Authentication of the five ingestion operations. Exactly one credential: a Bearer key; a browser
// token in the body field `credential` (track and replay only); or a legacy pp_wk_ key in `?key=`
// (answered with Deprecation: true). Anything unusable is 401 with one message that never says
// why; a live key without the right is 403 with a credential_* code (and a doctor record).

import type { Request, RequestHandler } from 'express';
import type { Services } from '../http/services.js';
import { ForbiddenError, UnauthorizedError } from '../ground/errors.js';
import { bearerToken } from '../ground/bearer.js';
import { parseValue, type IngestKeyType } from '../keys/keyValues.js';
import { verifyIngestKey, type IngestKey, type IngestScope } from '../keys/ingestKeys.js';
import { hostAllowed, requestHost } from '../keys/domainRules.js';
import { rejectionRows } from './rejections.js';
import { sdkHint } from './sdkInfo.js';
import { ingestWriter } from './groupWriter.js';
import type { EventSource } from './normalizeEvent.js';
import type { IngestCredential, IngestOperation } from './ingestCredential.js';
import { orgOfProject, requireIngestAllowed } from '../billing/accountState.js';

const SCOPE: Record<IngestOperation, IngestScope> = {
  track: 'events:write',
  identify: 'identify:write',
  alias: 'identify:write',
  replay: 'replay:write',
  capture: 'capture:write',
};

/** Recordings and element captures come from pages; a server key has no business there. */
const KEY_TYPES: Record<IngestOperation, readonly IngestKeyType[]> = {
  track: ['browser', 'server', 'legacy'],
  identify: ['browser', 'server', 'legacy'],
  alias: ['browser', 'server', 'legacy'],
  replay: ['browser', 'legacy'],
  capture: ['browser', 'legacy'],
};

const BODY_CREDENTIAL: ReadonlySet<IngestOperation> = new Set(['track', 'replay']);

const SOURCE: Record<IngestKeyType, EventSource> = { browser: 'browser', server: 'server', legacy: 'unknown' };

type Presented = { value: string; via: 'bearer' | 'body' | 'query' };

/** The one credential of the request; undefined when there is none, several, or a malformed one. */
function presented(req: Request, operation: IngestOperation): Presented | undefined {
  const found: Presented[] = [];
  const header = req.get('authorization');
  if (header !== undefined) {
    const token = bearerToken(header);
    if (!token) return undefined;
    found.push({ value: token, via: 'bearer' });
  }
  const body = req.body as Record<string, unknown> | undefined;
  if (BODY_CREDENTIAL.has(operation) && body && typeof body === 'object' && !Array.isArray(body) && body.credential !== undefined) {
    if (typeof body.credential !== 'string') return undefined;
    found.push({ value: body.credential, via: 'body' });
  }
  const query = (req.query as Record<string, unknown>).key;
  if (query !== undefined) {
    if (typeof query !== 'string') return undefined;
    found.push({ value: query, via: 'query' });
  }
  return found.length === 1 ? found[0] : undefined;
}

/** The live key behind the request, or undefined for every kind of 401. */
function resolveKey(services: Services, credential: Presented | undefined): IngestKey | undefined {
  if (!credential) return undefined;
  const parsed = parseValue(credential.value);
  if (!parsed || parsed.kind === 'release' || parsed.kind === 'personal') return undefined;
  // `credential` carries browser tokens only; `?key=` legacy keys only.
  if (credential.via === 'body' && parsed.kind !== 'browser') return undefined;
  if (credential.via === 'query' && parsed.kind !== 'legacy') return undefined;
  return verifyIngestKey(services, parsed);
}

/** The policy refusal for a live key, if any, in the order scope → linking split → origin. */
function refusal(req: Request, key: IngestKey, operation: IngestOperation): ForbiddenError | undefined {
  if (!KEY_TYPES[operation].includes(key.type) || !key.scopes.includes(SCOPE[operation])) {
    return new ForbiddenError('this key may not be used for this operation', 'credential_scope_forbidden', { required_scope: SCOPE[operation] });
  }
  if ((operation === 'identify' || operation === 'alias') && !key.linking_split) {
    return new ForbiddenError('this key was issued before identify and alias became a separate right; rotate it to use them', 'credential_rotation_required');
  }
  const bound = key.type === 'browser' || key.domains.length > 0;
  if (bound && !hostAllowed(key.domains, requestHost(req.get('origin'), req.get('referer')))) {
    return new ForbiddenError('this key may not be used from this origin', 'credential_origin_forbidden');
  }
  return undefined;
}

/** The credential of a live key allowed `operation`: else 401, or 403 (recorded for the doctor). */
function admitted(services: Services, req: Request, key: IngestKey | undefined, via: Presented['via'], operation: IngestOperation): IngestCredential {
  if (!key) throw new UnauthorizedError();
  const ingest: IngestCredential = { key, source: SOURCE[key.type], viaQuery: via === 'query' };
  const refused = refusal(req, key, operation);
  if (refused) {
    recordRefusal(services, req, ingest, operation, refused);
    throw refused;
  }
  if (services.config.edition === 'cloud') requireIngestAllowed(services, orgOfProject(services, key.project_id)!);
  return ingest;
}

export function ingestAuth(services: Services, operation: IngestOperation): RequestHandler {
  return (req, res, next) => {
    const credential = presented(req, operation);
    const ingest = admitted(services, req, resolveKey(services, credential), credential?.via ?? 'bearer', operation);
    if (ingest.viaQuery) res.setHeader('Deprecation', 'true');
    req.ingest = ingest;
    next();
  };
}

/**
 * The credential a PostHog client names in its payload (`api_key` or `token`): a browser token or a
 * server key of pp, held to the same rights and domains as on /v1.
 */
export function payloadCredential(services: Services, req: Request, value: string, operation: IngestOperation): IngestCredential {
  const parsed = parseValue(value);
  const key = parsed && (parsed.kind === 'browser' || parsed.kind === 'server') ? verifyIngestKey(services, parsed) : undefined;
  return admitted(services, req, key, 'body', operation);
}

/** Whether a key may also link identities (identify, alias), as a PostHog payload's `$identify` needs. */
export function mayLink(req: Request, credential: IngestCredential): boolean {
  return refusal(req, credential.key, 'identify') === undefined;
}

/** Policy refusals of a live key are what the Integration Doctor exists to show. */
function recordRefusal(services: Services, req: Request, credential: IngestCredential, operation: IngestOperation, err: ForbiddenError): void {
  const ctx = { credential, operation, sdk: sdkHint(req), requestId: req.id, receivedAt: services.clock.now() };
  const rows = rejectionRows(services, ctx, [{ index: null, event: null, code: err.code, message: err.message }]);
  if (rows.length === 0) return;
  ingestWriter(services)
    .submit({ events: [], rejections: rows })
    .catch((e: unknown) => services.log.warn({ err: e }, 'could not record a refused ingestion attempt'));
}

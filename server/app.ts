// Assembles the express app: request ids and logging, body parsing with the size limit, CORS,
// the per-address budget, every domain's routes (validated against the OpenAPI document), the web console, 404 and
// the one error middleware.

import express, { type Express } from 'express';
import type { Services } from './http/services.js';
import { allowedOrigins } from './ground/config.js';
import type { Domain } from './http/domain.js';
import { assembleDocument, type OpenApiDocument } from './http/openapi.js';
import { Validation } from './http/validation.js';
import { RouteTable } from './http/routeTable.js';
import { requestContext } from './http/requestContext.js';
import { securityHeaders } from './http/securityHeaders.js';
import { errorHandler, notFoundHandler, BODY_LIMIT_BYTES } from './http/errorHandler.js';
import { mainApiCors } from './http/cors.js';
import { rateLimit } from './http/rateLimit.js';
import { compressJson } from './http/compression.js';
import { healthDomain } from './http/health.js';
import { openapiDomain } from './http/openapiRoute.js';
import { trackerDomain } from './tracker/routes.js';
import { licenseDomain } from './license/licenseDomain.js';
import { billingDomain } from './billing/billingDomain.js';
import { paymentsDomain, providerEventBody, PROVIDER_EVENTS_PATH } from './billing/paymentRoutes.js';
import { unsubscribeDomain } from './billing/unsubscribeRoutes.js';
import { authDomain } from './auth/routes.js';
import { oidcDomain } from './auth/oidc/routes.js';
import { accountsDomain } from './accounts/routes.js';
import { ingestDomain } from './ingest/routes.js';
import { ingestCors } from './ingest/ingestCors.js';
import { POSTHOG_CAPTURE_PATHS, POSTHOG_FLAG_PATHS } from './ingest/posthog.js';
import { keysDomain } from './keys/routes.js';
import { personalKeysDomain } from './keys/personalKeyRoutes.js';
import { behaviorDomain } from './behavior/routes.js';
import { formPurgeDomain } from './behavior/purgeRoutes.js';
import { labeledEventsDomain } from './labeled/routes.js';
import { dashboardsDomain } from './dashboards/routes.js';
import { shareLinksDomain } from './dashboards/shareRoutes.js';
import { queriesDomain } from './queries/routes.js';
import { segmentsDomain } from './accounts/segmentsDomain.js';
import { pathCleaningDomain } from './queries/pathCleaningDomain.js';
import { eventsDomain } from './events/routes.js';
import { replayDomain } from './replay/routes.js';
import { personsDomain } from './persons/routes.js';
import { transferDomain } from './transfer/routes.js';
import { consoleSite, loadConsoleFiles } from './http/consoleSite.js';
import { cloudOnly, liveAccount, writableAccount } from './billing/accountGate.js';
import { authenticate } from './auth/authenticate.js';
import { membership } from './access/membership.js';
import { getProject } from './accounts/projects.js';
import type { AccessChecks } from './access/guard.js';
import { requireEntitlement } from './license/requireEntitlement.js';

export interface BuiltApp {
  app: Express;
  document: OpenApiDocument;
  routes: RouteTable;
}

export const DOMAINS: Domain[] = [
  healthDomain,
  openapiDomain,
  trackerDomain,
  authDomain,
  oidcDomain,
  accountsDomain,
  licenseDomain,
  billingDomain,
  paymentsDomain,
  unsubscribeDomain,
  ingestDomain,
  keysDomain,
  personalKeysDomain,
  behaviorDomain,
  formPurgeDomain,
  labeledEventsDomain,
  dashboardsDomain,
  shareLinksDomain,
  queriesDomain,
  segmentsDomain,
  pathCleaningDomain,
  eventsDomain,
  replayDomain,
  personsDomain,
  transferDomain,
];

/** The OpenAPI document of every domain, as served at /api/v1/openapi.json. */
export function apiDocument(version: string, domains: Domain[] = DOMAINS): OpenApiDocument {
  return assembleDocument(
    version,
    domains.map((d) => d.openapi),
  );
}

export function buildApp(services: Services, domains: Domain[] = DOMAINS): BuiltApp {
  const document = apiDocument(services.version, domains);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', services.config.trust_proxy);
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use(requestContext(services.log));
  app.use(securityHeaders());
  app.use(['/api/v1', '/v1'], compressJson());
  const origins = allowedOrigins(services.config);
  app.use(
    '/api/v1',
    mainApiCors(() => origins),
  );
  app.use(
    '/api/v1',
    rateLimit(
      services.limiter,
      'api-ip',
      () => ({ perMinute: services.config.rate_limit.ip_per_minute }),
      (req) => req.ip ?? 'unknown',
    ),
  );
  // The payment callback's signature covers its exact bytes: read raw first, so the JSON parser skips it.
  app.use(PROVIDER_EVENTS_PATH, providerEventBody());
  app.use('/api/v1', express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'application/*+json'] }));
  app.use('/v1', ingestCors());
  // PostHog clients post to the root (`/batch/`, `/e/`…) in encodings of their own: read raw, decoded by the route.
  app.use([...POSTHOG_CAPTURE_PATHS, ...POSTHOG_FLAG_PATHS], ingestCors(/^\/?$/), express.raw({ limit: BODY_LIMIT_BYTES, type: () => true }));
  app.use('/array', ingestCors(/^$/));
  // Beacons cannot set a JSON content type without a preflight, so ingestion reads text/plain as JSON.
  app.use('/v1', express.json({ limit: BODY_LIMIT_BYTES, type: ['application/json', 'text/plain', 'application/*+json'] }));

  const routes = new RouteTable(app, new Validation(document), document, accessChecks(services));
  for (const d of domains) d.mount(routes, services);
  app.use(consoleSite(loadConsoleFiles()));

  app.use(notFoundHandler());
  app.use(errorHandler(services.log));
  return { app, document, routes };
}

/** The checks the routes' access declarations name (server/access/guard.ts gives their order). */
export function accessChecks(services: Services): AccessChecks {
  return {
    authenticate: (apiKey) => authenticate(services, apiKey),
    cloudOnly: cloudOnly(services),
    membership: (scope, role) => membership(services, getProject, scope, role),
    writableAccount: writableAccount(services),
    liveAccount: liveAccount(services),
    entitlement: (entitlement) => (req, _res, next) => {
      requireEntitlement(services, req.project?.org_id ?? req.auth!.orgId, entitlement);
      next();
    },
  };
}

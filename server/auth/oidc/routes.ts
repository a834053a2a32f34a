// HTTP for single sign-on: the two public steps of the sign-in (in the sign-in rate-limit group) and
// the owner's configuration of the organization's provider. The rules live in the modules called.

import type { Domain } from '../../http/domain.js';
import { oidcCallbackUrl } from '../../ground/config.js';
import type { Services } from '../../http/services.js';
import { org, other } from '../../access/access.js';
import { authIpLimit, spendEmailBudget } from '../authLimits.js';
import { setRefreshCookie } from '../refreshCookie.js';
import { clientOf } from '../signIn.js';
import { oidcOpenApi } from './openapi.js';
import { startOidcSignIn, oidcRedirectUri } from './startOidc.js';
import { completeOidcSignIn } from './completeOidc.js';
import { configureOidcProvider, removeOidcProvider } from './configureOidc.js';
import { getOidcProvider, type OidcProvider } from './oidcProviders.js';

function presentProvider(services: Services, p: OidcProvider) {
  return {
    configured: true as const,
    org_id: p.org_id,
    issuer: p.issuer,
    client_id: p.client_id,
    client_secret_set: true,
    domains: p.domains,
    enabled: p.enabled,
    jit: p.jit,
    redirect_uri: oidcRedirectUri(services),
    created_at: p.created_at,
    updated_at: p.updated_at,
  };
}

export const oidcDomain: Domain = {
  name: 'oidc',
  openapi: oidcOpenApi,
  mount(routes, services) {
    const signInGroup = other('none', [authIpLimit(services)]);
    // How members sign in is not for a personal API key to change.
    const owner = org('owner', { apiKey: 'never' });
    const path = '/api/v1/orgs/{orgID}/oidc';

    routes.post('/api/v1/auth/oidc/start', signInGroup, (req, res) => {
      if (req.body.email !== undefined) spendEmailBudget(services, req.body.email);
      res.setHeader('Cache-Control', 'no-store');
      res.json({ authorization_url: startOidcSignIn(services, req.body) });
    });

    routes.get('/api/v1/auth/oidc/callback', signInGroup, async (req, res) => {
      const signedIn = await completeOidcSignIn(services, req.valid.query, clientOf(req));
      setRefreshCookie(res, services.config, signedIn.refreshToken);
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(303, oidcCallbackUrl(services.config));
    });

    routes.get(path, owner, (req, res) => {
      const provider = getOidcProvider(services, req.auth!.orgId);
      res.json(provider ? presentProvider(services, provider) : { configured: false, redirect_uri: oidcRedirectUri(services) });
    });

    routes.put(path, owner, async (req, res) => {
      res.json(presentProvider(services, await configureOidcProvider(services, req.auth!.orgId, req.auth!.userId, req.body)));
    });

    routes.delete(path, owner, (req, res) => {
      removeOidcProvider(services, req.auth!.orgId, req.auth!.userId);
      res.status(204).end();
    });
  },
};

// Every mounted route declares who may call it, and the declaration agrees with the OpenAPI
// document's security: an access-token route documents `accessToken`, an ingestion route
// `ingestionKey`, the deploy marker `releaseToken`, and a route proven otherwise (or by nothing)
// documents none, wherever the operation states its security.

import t from 'tap';
import { startTestServer } from '../support/testServer.js';
import { API_KEY_SCOPES, apiKeyScopeOf, type Access } from '../../server/access/access.js';
import { ROLES } from '../../server/access/roles.js';

const SCHEME_OF: Record<Access['credential'], string | undefined> = {
  none: undefined,
  access_token: 'accessToken',
  refresh_cookie: undefined,
  ingest_key: 'ingestionKey',
  payload_key: undefined,
  release_token: 'releaseToken',
  share_token: undefined,
  email_token: undefined,
  signed_link: undefined,
  provider_signature: undefined,
};

t.test('every mounted route declares its access, and the document agrees', async (t) => {
  const server = await startTestServer(t);
  const { mounted, document } = server.running.built.routes;
  t.ok(mounted.length > 100, `${mounted.length} routes are mounted`);
  for (const { method, path, access } of mounted) {
    const name = `${method.toUpperCase()} ${path}`;
    t.ok(access && access.credential in SCHEME_OF, `${name} names its credential`);
    const security = document.paths[path]?.[method]?.security;
    const schemes = (security ?? []).flatMap((s) => Object.keys(s));
    const expected = SCHEME_OF[access.credential];
    // Where the document states no security for the operation, there is nothing to compare.
    if (security === undefined) t.pass(`${name} documents no security of its own`);
    else if (expected) t.ok(schemes.includes(expected), `${name}: ${access.credential} is documented as ${expected} (found ${schemes.join(', ') || 'none'})`);
    else t.same(schemes, [], `${name}: a ${access.credential} route documents no security scheme`);
    if (access.credential === 'access_token') {
      t.ok(access.scope, `${name} says what it is about`);
      if (access.role) t.ok(ROLES.includes(access.role), `${name} names a known role`);
      if (access.scope === 'project') t.match(path, /\{id\}/, `${name} is about the project in its path`);
      if (access.scope === 'org') t.match(path, /\{orgID\}/, `${name} is about the organization in its path`);
      if (access.role === undefined) t.ok(access.scope === 'self' || method === 'get', `${name}: a change by any member is only about the caller's own account`);
    } else {
      t.equal(access.scope === undefined || access.credential === 'release_token', true, `${name}: only member routes have a scope`);
      t.equal(access.role, undefined, `${name}: only member routes have a role`);
    }
    const keyScope = apiKeyScopeOf(method, access);
    if (security !== undefined && access.credential === 'access_token') {
      const documented = security.find((s) => 'personalApiKey' in s)?.personalApiKey;
      t.same(documented, keyScope === 'never' ? undefined : [keyScope], `${name}: the document names the key scope it takes`);
    }
    t.ok(keyScope === 'never' || API_KEY_SCOPES.includes(keyScope), `${name} accepts ${keyScope === 'never' ? 'no personal API key' : `the ${keyScope} key scope`}`);
    if (path.startsWith('/api/v1/auth/') || path.startsWith('/api/v1/me') || path.startsWith('/v1/') || !path.startsWith('/api/v1/')) {
      t.equal(keyScope, 'never', `${name} takes no personal API key`);
    }
  }
});

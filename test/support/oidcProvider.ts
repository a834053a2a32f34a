// A real OpenID provider (oidc-provider) on 127.0.0.1 with an ephemeral port, for the single sign-on
// tests: one confidential client, accounts with email and email_verified claims, signing keys that
// can be rotated, and a client setting that makes it sign ID tokens with another algorithm. The
// browser's part (following redirects, carrying cookies, "logging in" at the interaction page) is
// played by signIn().

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Test } from 'tap';
import Provider from 'oidc-provider';

export interface IdpAccount {
  email: string;
  /** Omitted from the claims when undefined. */
  email_verified?: boolean;
  name?: string;
}

export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post';

export interface TestIdpOptions {
  /** pp's callback, registered as the client's only redirect URI. */
  redirectUri: string;
  /** Token endpoint authentication the provider offers (its discovery lists only these); the client uses the first. */
  clientAuthMethods?: ClientAuthMethod[];
  /** The client's id_token_signed_response_alg (default RS256); HS256 signs with the client secret. */
  idTokenAlg?: string;
  /** False keeps email claims out of the ID token, so they come from userinfo only (default true). */
  claimsInIdToken?: boolean;
}

export interface TestIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: Map<string, IdpAccount>;
  /** Who signs in at the login page when a real browser (not signIn()) comes to it. */
  browserAccount?: string;
  /** The kids currently published at jwks_uri. */
  keyIds(): string[];
  /** Replaces every signing key; the old ones are no longer published. */
  rotateKeys(): Promise<void>;
  /** Changes the provider's settings (same issuer, client and keys). */
  reconfigure(changes: Partial<Omit<TestIdpOptions, 'redirectUri'>>): void;
  /**
   * Plays the browser from the authorization URL pp handed out: the provider's login page is answered
   * as `accountId`, and the URL the provider then sends the browser to (pp's callback) is returned.
   */
  signIn(authorizationUrl: string, accountId: string): Promise<URL>;
  close(): Promise<void>;
}

async function signingKeys(): Promise<JWK[]> {
  const suffix = randomBytes(4).toString('hex');
  const make = async (alg: string, kid: string, options: Record<string, unknown> = {}) => {
    const { privateKey } = await generateKeyPair(alg, { extractable: true, ...options });
    return { ...(await exportJWK(privateKey)), kid: `${kid}-${suffix}`, use: 'sig' };
  };
  return [await make('RS256', 'rsa'), await make('ES256', 'ec'), await make('EdDSA', 'ed', { crv: 'Ed25519' })];
}

export async function startTestIdp(t: Test, options: TestIdpOptions): Promise<TestIdp> {
  const clientId = 'pp-test-client';
  const clientSecret = randomBytes(24).toString('base64url');
  const accounts = new Map<string, IdpAccount>();
  let settings: Required<Omit<TestIdpOptions, 'redirectUri'>> = {
    clientAuthMethods: options.clientAuthMethods ?? ['client_secret_basic', 'client_secret_post'],
    idTokenAlg: options.idTokenAlg ?? 'RS256',
    claimsInIdToken: options.claimsInIdToken ?? true,
  };
  let keys = await signingKeys();

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = () => {
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [options.redirectUri],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: settings.clientAuthMethods[0],
          id_token_signed_response_alg: settings.idTokenAlg,
        },
      ],
      clientAuthMethods: settings.clientAuthMethods,
      enabledJWA: { idTokenSigningAlgValues: ['HS256', 'RS256', 'PS256', 'ES256', 'EdDSA'] },
      jwks: { keys },
      cookies: { keys: ['test-idp-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: !settings.claimsInIdToken,
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => true },
      ttl: { AuthorizationCode: 60, Interaction: 600, Grant: 3600, Session: 3600, AccessToken: 600, IdToken: 600 },
      async findAccount(_ctx: unknown, sub: string) {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return { accountId: sub, claims: async () => ({ sub, ...account }) };
      },
      // The one client is first-party: consent is granted without asking.
      async loadExistingGrant(ctx: any) {
        const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
        if (grantId) return ctx.oidc.provider.Grant.find(grantId);
        const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
    });
    if (process.env.PP_TEST_LOG) provider.on('server_error', (_ctx, err) => process.stderr.write(`oidc-provider: ${String(err)}\n`));
    return provider;
  };
  let provider = build();
  let handler = provider.callback();

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname.startsWith('/interaction/')) {
      // The login page: whoever the test names has "entered their password".
      const accountId = url.searchParams.get('account') ?? idp.browserAccount ?? '';
      provider
        .interactionDetails(req, res)
        .then(() => provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false }))
        .catch((err: unknown) => {
          res.statusCode = 500;
          res.end(String(err));
        });
      return;
    }
    handler(req, res);
  });

  const idp: TestIdp = {
    issuer,
    clientId,
    clientSecret,
    accounts,
    keyIds: () => keys.map((k) => k.kid!),
    async rotateKeys() {
      keys = await signingKeys();
      provider = build();
      handler = provider.callback();
    },
    reconfigure(changes) {
      settings = { ...settings, ...changes };
      provider = build();
      handler = provider.callback();
    },
    async signIn(authorizationUrl, accountId) {
      const jar = new Map<string, string>();
      let next = new URL(authorizationUrl);
      for (let hop = 0; hop < 10; hop++) {
        if (next.origin !== issuer) return next;
        if (next.pathname.startsWith('/interaction/')) next.searchParams.set('account', accountId);
        const res = await fetch(next, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const cookie of res.headers.getSetCookie()) {
          const [pair] = cookie.split(';');
          const eq = pair!.indexOf('=');
          const name = pair!.slice(0, eq).trim();
          const value = pair!.slice(eq + 1).trim();
          if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(cookie)) jar.delete(name);
          else jar.set(name, value);
        }
        const location = res.headers.get('location');
        if (res.status < 300 || res.status >= 400 || !location) {
          throw new Error(`identity provider answered ${res.status} at ${next.pathname}: ${(await res.text()).slice(0, 500)}`);
        }
        await res.body?.cancel();
        next = new URL(location, next);
      }
      throw new Error('identity provider redirected too often');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  t.teardown(() => idp.close());
  return idp;
}

// A small identity provider of our own on 127.0.0.1, next to oidc-provider, for what a well-behaved
// provider never does: it serves real discovery, key set, authorization and token endpoints (checking
// the client's credentials and the PKCE verifier like a real one), but the ID token it returns carries
// the fault the test asks for (a tampered signature, alg "none", a wrong nonce…), and its discovery
// document and key set can be replaced or slowed down.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose';
import type { Test } from 'tap';

export type IdTokenFault = 'none' | 'tampered_signature' | 'tampered_payload' | 'alg_none' | 'foreign_key' | 'wrong_audience' | 'wrong_issuer' | 'expired' | 'wrong_nonce' | 'other_azp';

export interface ScriptedIdp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The claims of the signed-in user. */
  identity: { sub: string; email: string; email_verified: boolean };
  fault: IdTokenFault;
  /** Replaces (undefined: removes) members of the discovery document. */
  discoveryOverrides: Record<string, unknown>;
  /** Served at jwks_uri instead of the real key set. */
  jwksOverride?: unknown;
  /** How many requests the provider has received. */
  requests: number;
  /** Answers the discovery document this late. */
  discoveryDelayMs: number;
  /** The provider's clock for iat and exp (default: the real time). */
  now: () => Date;
  /** Follows the authorization URL to the provider and returns where it sends the browser (pp's callback). */
  signIn(authorizationUrl: string): Promise<URL>;
}

interface PendingCode {
  nonce: string;
  challenge: string;
  redirectUri: string;
}

export async function startScriptedIdp(t: Test, options: { redirectUri: string }): Promise<ScriptedIdp> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  // A second key under the same kid, made only when a test asks for it (RSA key generation is slow).
  let foreign: Promise<CryptoKey> | undefined;
  const kid = 'scripted-1';
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  const codes = new Map<string, PendingCode>();

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const idp: ScriptedIdp = {
    issuer,
    clientId: 'scripted-client',
    clientSecret: randomBytes(24).toString('base64url'),
    identity: { sub: 'user-1', email: 'carol@acme.test', email_verified: true },
    fault: 'none',
    discoveryOverrides: {},
    requests: 0,
    discoveryDelayMs: 0,
    now: () => new Date(),
    async signIn(authorizationUrl) {
      const res = await fetch(authorizationUrl, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`scripted provider answered ${res.status}: ${await res.text()}`);
      return new URL(location);
    },
  };

  const discovery = () => {
    const doc: Record<string, unknown> = {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      id_token_signing_alg_values_supported: ['RS256'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post'],
      ...idp.discoveryOverrides,
    };
    return Object.fromEntries(Object.entries(doc).filter(([, v]) => v !== undefined));
  };

  async function idToken(pending: PendingCode): Promise<string> {
    const now = Math.floor(idp.now().getTime() / 1000);
    const claims: JWTPayload = {
      iss: idp.fault === 'wrong_issuer' ? `${issuer}/other` : issuer,
      sub: idp.identity.sub,
      aud: idp.fault === 'wrong_audience' ? 'another-client' : idp.fault === 'other_azp' ? [idp.clientId, 'another-client'] : idp.clientId,
      iat: idp.fault === 'expired' ? now - 7200 : now,
      exp: idp.fault === 'expired' ? now - 3600 : now + 600,
      nonce: idp.fault === 'wrong_nonce' ? 'not-the-nonce' : pending.nonce,
      email: idp.identity.email,
      email_verified: idp.identity.email_verified,
      ...(idp.fault === 'other_azp' ? { azp: 'another-client' } : {}),
    };
    if (idp.fault === 'alg_none') return new UnsecuredJWT(claims).encode();
    const key = idp.fault === 'foreign_key' ? await (foreign ??= generateKeyPair('RS256').then((pair) => pair.privateKey)) : privateKey;
    const jwt = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    if (idp.fault === 'tampered_signature') {
      const bytes = Buffer.from(signature, 'base64url');
      bytes[bytes.length >> 1]! ^= 0x01;
      return `${header}.${payload}.${bytes.toString('base64url')}`;
    }
    if (idp.fault === 'tampered_payload') {
      const changed = Buffer.from(JSON.stringify({ ...claims, email: 'mallory@acme.test' })).toString('base64url');
      return `${header}.${changed}.${signature}`;
    }
    return jwt;
  }

  function clientAuthenticated(req: http.IncomingMessage, form: URLSearchParams): boolean {
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1]!, 'base64')
        .toString()
        .split(':')
        .map((s) => decodeURIComponent(s.replace(/\+/g, ' ')));
      return id === idp.clientId && secret === idp.clientSecret;
    }
    return form.get('client_id') === idp.clientId && form.get('client_secret') === idp.clientSecret;
  }

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  server.on('request', (req, res) => {
    idp.requests += 1;
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/.well-known/openid-configuration') {
      setTimeout(() => json(res, 200, discovery()), idp.discoveryDelayMs);
      return;
    }
    if (url.pathname === '/jwks') return json(res, 200, idp.jwksOverride ?? { keys: [publicJwk] });
    if (url.pathname === '/authorize') {
      const p = url.searchParams;
      if (p.get('client_id') !== idp.clientId || p.get('redirect_uri') !== options.redirectUri || p.get('response_type') !== 'code' || p.get('code_challenge_method') !== 'S256') {
        return json(res, 400, { error: 'invalid_request' });
      }
      const code = randomBytes(16).toString('base64url');
      codes.set(code, { nonce: p.get('nonce') ?? '', challenge: p.get('code_challenge') ?? '', redirectUri: p.get('redirect_uri')! });
      const back = new URL(options.redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', p.get('state') ?? '');
      res.writeHead(302, { location: back.toString() });
      res.end();
      return;
    }
    if (url.pathname === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        if (!clientAuthenticated(req, form)) return json(res, 401, { error: 'invalid_client' });
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (!pending || form.get('grant_type') !== 'authorization_code' || form.get('redirect_uri') !== pending.redirectUri) return json(res, 400, { error: 'invalid_grant' });
        if (createHash('sha256').update(verifier).digest('base64url') !== pending.challenge) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
        idToken(pending).then(
          (id_token) => json(res, 200, { access_token: randomBytes(16).toString('base64url'), token_type: 'Bearer', expires_in: 600, id_token }),
          (err: unknown) => json(res, 500, { error: String(err) }),
        );
      });
      return;
    }
    json(res, 404, { error: 'not_found' });
  });

  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return idp;
}

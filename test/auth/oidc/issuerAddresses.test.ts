// Configuring an identity provider makes the server fetch a URL an organization owner chose. Unless
// the operator sets oidc.allow_private_issuers, pp refuses plain http and every loopback, link-local
// or private address, written as an address or reached through a name, without contacting it. And
// whatever the setting, a failed connection reads the same whether the port is closed, open to
// something that is not HTTP, or silent, so the answer is no port scanner.

import net, { type AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { accessTokenFor, createTenant } from '../../support/factories.js';
import { startScriptedIdp } from '../../support/scriptedIdp.js';
import type { TestServer } from '../../support/testServer.js';
import { CALLBACK_PATH, providerBody, startSsoServer } from './oidcKit.js';
import { isNonPublicAddress } from '../../../server/auth/oidc/idpAddress.js';

const PRIVATE = 'is a loopback, link-local or private address (or a name resolving to one); pp contacts those only when the operator sets oidc.allow_private_issuers';
const HTTP = 'is plain http; identity providers must use https unless the operator sets oidc.allow_private_issuers';

async function ownerPut(server: TestServer) {
  const tenant = await createTenant(server);
  const token = await accessTokenFor(server, tenant.owner, tenant.org);
  return (issuer: string) => server.request('PUT', `/api/v1/orgs/${tenant.org.id}/oidc`, { token, body: providerBody({ issuer, clientId: 'pp', clientSecret: 's' }) });
}

/** A TCP listener that does `behavior` with every connection; its port. */
async function tcpListener(t: Test, behavior: 'close' | 'hang' | 'closed'): Promise<number> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    if (behavior === 'close') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const stop = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(resolve);
    });
  if (behavior === 'closed') await stop();
  else t.teardown(stop);
  return port;
}

t.test('address policy: what counts as not public', async (t) => {
  for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '224.0.0.1']) {
    t.ok(isNonPublicAddress(a), a);
  }
  for (const a of ['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700::1111']) t.notOk(isNonPublicAddress(a), a);
});

t.test('by default: plain http and private addresses are refused before any connection', async (t) => {
  const server = await startSsoServer(t, { 'oidc.allow_private_issuers': false });
  const scripted = await startScriptedIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });
  const port = new URL(scripted.issuer).port;
  const put = await ownerPut(server);
  const prefix = 'issuer could not be verified: the discovery document could not be fetched:';
  const cases: Array<[string, string]> = [
    [scripted.issuer, `${prefix} ${scripted.issuer} ${HTTP}`],
    [`https://127.0.0.1:${port}`, `${prefix} https://127.0.0.1:${port} ${PRIVATE}`],
    [`https://localhost:${port}`, `${prefix} https://localhost:${port} ${PRIVATE}`],
    [`https://[::1]:${port}`, `${prefix} https://[::1]:${port} ${PRIVATE}`],
    ['https://169.254.169.254', `${prefix} https://169.254.169.254 ${PRIVATE}`],
    ['https://10.20.30.40/realms/acme', `${prefix} https://10.20.30.40 ${PRIVATE}`],
  ];
  for (const [issuer, message] of cases) {
    const res = await put(issuer);
    t.equal(res.status, 422, issuer);
    t.equal(res.body.error.code, 'validation_failed', issuer);
    t.equal(res.body.error.message, message, issuer);
  }
  t.equal(scripted.requests, 0, 'the provider on loopback was never asked');
});

t.test('closed, non-HTTP and silent ports give the same answer, with or without the setting', async (t) => {
  for (const allow of [true, false]) {
    const server = await startSsoServer(t, { 'oidc.allow_private_issuers': allow, 'oidc.http_timeout_ms': 300 });
    const put = await ownerPut(server);
    const messages = new Set<string>();
    for (const behavior of ['closed', 'close', 'hang'] as const) {
      const port = await tcpListener(t, behavior);
      const res = await put(`${allow ? 'http' : 'https'}://127.0.0.1:${port}`);
      t.equal(res.status, 422, `${behavior}, allow=${allow}`);
      messages.add((res.body.error.message as string).replace(`:${port}`, ':PORT'));
    }
    t.equal(messages.size, 1, `one message for all three (allow=${allow}): ${[...messages].join(' | ')}`);
    if (allow) {
      t.match([...messages][0], /could not be reached or did not answer within 300 ms$/);
      t.ok(
        server.logs.some((l) => l.msg === 'identity provider request failed' && l.cause === 'ECONNREFUSED'),
        'the operator log keeps the cause',
      );
    }
  }
});

t.test('with oidc.allow_private_issuers the provider on loopback over http is accepted', async (t) => {
  const server = await startSsoServer(t, { 'oidc.allow_private_issuers': true });
  const scripted = await startScriptedIdp(t, { redirectUri: `${server.url}${CALLBACK_PATH}` });
  const put = await ownerPut(server);
  const res = await put(scripted.issuer);
  t.equal(res.status, 200, res.text);
});

// TLS without a proxy: the self-signed certificate made at install, the check of an operator's pair,
// and the server speaking HTTPS when tls_cert and tls_key are set.

import t from 'tap';
import https from 'node:https';
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, ConfigError } from '../../server/ground/config.js';
import { startServer } from '../../server/start.js';
import { createLogger } from '../../server/ground/logger.js';
import { checkCertificatePair, selfSignedCertificate, SELF_SIGNED_DAYS } from '../../installer/tlsCertificate.js';
import { tempDir } from '../support/tempDir.js';

const now = new Date('2026-11-02T12:00:00Z');

t.test('the self-signed certificate names the hosts and addresses, is valid 825 days and matches its key', async (t) => {
  const pair = selfSignedCertificate({ names: ['analytics.example.com', 'localhost', '127.0.0.1', '::1'], now });
  const cert = new X509Certificate(pair.cert);
  t.equal(
    cert.subject.split('\n').find((l) => l.startsWith('CN=')),
    'CN=analytics.example.com',
  );
  t.equal(cert.subjectAltName, 'DNS:analytics.example.com, DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  t.equal(new Date(cert.validTo).getTime() - now.getTime(), SELF_SIGNED_DAYS * 86_400_000, 'expires 825 days after it is made');
  t.ok(new Date(cert.validFrom) <= now, 'already valid when made');
  t.ok(cert.checkPrivateKey(createPrivateKey(pair.key)));
  t.ok(cert.verify(cert.publicKey), 'signed by its own key');
  t.equal(cert.ca, false);
  const again = selfSignedCertificate({ names: ['analytics.example.com'], now });
  t.not(new X509Certificate(again.cert).serialNumber, cert.serialNumber, 'a fresh serial each time');
});

t.test("an operator's certificate and key must belong together", async (t) => {
  const dir = await tempDir(t);
  const a = selfSignedCertificate({ names: ['a.example.com'], now });
  const b = selfSignedCertificate({ names: ['b.example.com'], now });
  const files = { certA: path.join(dir, 'a.crt'), keyA: path.join(dir, 'a.key'), keyB: path.join(dir, 'b.key'), junk: path.join(dir, 'junk.pem') };
  writeFileSync(files.certA, a.cert);
  writeFileSync(files.keyA, a.key);
  writeFileSync(files.keyB, b.key);
  writeFileSync(files.junk, 'not a certificate');
  t.same(checkCertificatePair(files.certA, files.keyA).names, ['a.example.com']);
  t.throws(() => checkCertificatePair(files.certA, files.keyB), { message: `${files.keyB} is not the private key of ${files.certA}` });
  t.throws(() => checkCertificatePair(files.junk, files.keyA), { message: new RegExp(`^${files.junk} is not a readable PEM certificate`) });
  t.throws(() => checkCertificatePair(files.certA, path.join(dir, 'missing.key')), /missing\.key is not a readable PEM private key/);
});

t.test('tls_cert and tls_key: the server answers HTTPS and the base URL says https', async (t) => {
  const dir = await tempDir(t);
  const pair = selfSignedCertificate({ names: ['localhost', '127.0.0.1'], now: new Date() });
  writeFileSync(path.join(dir, 'cert.pem'), pair.cert);
  writeFileSync(path.join(dir, 'key.pem'), pair.key, { mode: 0o600 });
  const config = loadConfig({ env: {}, flags: { port: 0, data_dir: path.join(dir, 'data'), tls_cert: path.join(dir, 'cert.pem'), tls_key: path.join(dir, 'key.pem'), log_level: 'silent' } });
  t.match(config.base_url, /^https:\/\/127\.0\.0\.1:0$/);
  const running = await startServer(config, { log: createLogger('silent') });
  t.teardown(() => running.close());
  t.match(running.url, /^https:\/\//);
  const { body, hsts } = await new Promise<{ body: string; hsts: unknown }>((resolve, reject) => {
    https
      .get(`${running.url}/api/v1/health`, { ca: pair.cert }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ body: text, hsts: res.headers['strict-transport-security'] }));
      })
      .on('error', reject);
  });
  t.equal(JSON.parse(body).status, 'ok', 'the certificate verifies against itself as the trusted CA');
  t.equal(hsts, 'max-age=31536000', 'HSTS when serving https');
});

t.test('a certificate without its key, or an unusable pair, stops the start', async (t) => {
  const dir = await tempDir(t);
  t.throws(() => loadConfig({ env: {}, flags: { tls_cert: path.join(dir, 'cert.pem') } }), new ConfigError('tls_cert and tls_key must be set together'));
  const a = selfSignedCertificate({ names: ['a'], now });
  const b = selfSignedCertificate({ names: ['b'], now });
  writeFileSync(path.join(dir, 'cert.pem'), a.cert);
  writeFileSync(path.join(dir, 'key.pem'), b.key);
  const config = loadConfig({ env: {}, flags: { port: 0, data_dir: path.join(dir, 'data'), tls_cert: path.join(dir, 'cert.pem'), tls_key: path.join(dir, 'key.pem') } });
  await t.rejects(startServer(config, { log: createLogger('silent') }), /tls_cert and tls_key are not a usable pair/);
  const missing = loadConfig({ env: {}, flags: { port: 0, data_dir: path.join(dir, 'data'), tls_cert: path.join(dir, 'nope.pem'), tls_key: path.join(dir, 'key.pem') } });
  await t.rejects(startServer(missing, { log: createLogger('silent') }), /cannot read tls_cert .*nope\.pem: ENOENT/);
});

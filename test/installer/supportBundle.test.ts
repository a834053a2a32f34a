// What a support bundle may carry of the config: secrets replaced, credentials cut out of URLs.

import t from 'tap';
import { redact } from '../../installer/supportBundle.js';

t.test('secrets and URL credentials are redacted, the rest kept', async (t) => {
  const config = {
    port: 8080,
    secret: '9f'.repeat(32),
    smtp_url: 'smtp://mailer:hunter2@mail.example.com:587',
    base_url: 'https://analytics.example.com',
    tls_key: '/etc/pp/tls/key.pem',
    oidc: { client_secret: 'abc', issuer: 'https://idp.example.com' },
    admin_password: 'x',
    api_token: 'y',
  };
  const out = redact(config) as Record<string, unknown>;
  t.same(out, {
    port: 8080,
    secret: '[redacted]',
    smtp_url: 'smtp://%5Bredacted%5D:%5Bredacted%5D@mail.example.com:587',
    base_url: 'https://analytics.example.com',
    tls_key: '/etc/pp/tls/key.pem',
    oidc: { client_secret: '[redacted]', issuer: 'https://idp.example.com' },
    admin_password: '[redacted]',
    api_token: '[redacted]',
  });
  t.notMatch(JSON.stringify(out), /hunter2|9f9f|abc"/);
});

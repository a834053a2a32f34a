// `ppctl install` flags: parsing, the rules checked before anything is touched, and the refusal to
// install from a source checkout.

import t from 'tap';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseTls, readPasswordFile, resolveInstallOptions } from '../../installer/installOptions.js';
import { checkInstallOptions, type InstallOptions } from '../../installer/install.js';
import { runPpctl } from '../support/ppctl.js';
import { tempDir } from '../support/tempDir.js';

t.test('--tls takes off, self-signed or two files', async (t) => {
  t.same(parseTls('off'), { mode: 'off' });
  t.same(parseTls('self-signed'), { mode: 'self-signed' });
  t.same(parseTls('/etc/ssl/pp.crt,/etc/ssl/pp.key'), { mode: 'files', cert: '/etc/ssl/pp.crt', key: '/etc/ssl/pp.key' });
  for (const bad of ['on', 'a.crt', 'a,b,c', ',b']) t.throws(() => parseTls(bad), { message: `--tls must be self-signed, off or CERT,KEY (two PEM files), got ${JSON.stringify(bad)}` });
});

t.test('the password file loses only its final line break', async (t) => {
  const dir = await tempDir(t);
  const cases: Array<[string, string]> = [
    ['Secret-1!\n', 'Secret-1!'],
    ['Secret-1!\r\n', 'Secret-1!'],
    ['Secret-1!', 'Secret-1!'],
    [' Secret-1! \n\n', ' Secret-1! \n'],
  ];
  for (const [content, expected] of cases) {
    writeFileSync(path.join(dir, 'pw'), content);
    t.equal(readPasswordFile(path.join(dir, 'pw')), expected, JSON.stringify(content));
  }
  t.throws(() => readPasswordFile(path.join(dir, 'missing')), /cannot read --admin-password-file .*missing: ENOENT/);
});

t.test('non-interactive defaults, and the rules checked before anything is touched', async (t) => {
  const dir = await tempDir(t);
  const base: InstallOptions = await resolveInstallOptions({ configDir: path.join(dir, 'etc'), systemd: false, user: 'root' }, false);
  t.match(base, { prefix: '/opt/pp', dataDir: '/var/lib/pp', binDir: '/usr/local/bin', host: '0.0.0.0', port: 8080, tls: { mode: 'off' }, signupMode: 'closed', timezone: 'UTC', service: 'process' });
  const owner = { adminEmail: 'owner@example.com', adminPassword: 'Good-pass-1' };
  t.doesNotThrow(() => checkInstallOptions({ ...base, ...owner }, true));
  t.doesNotThrow(() => checkInstallOptions(base, false), 'an existing installation needs no owner');
  const cases: Array<[Partial<InstallOptions>, string | RegExp]> = [
    [{ adminEmail: undefined }, '--admin-email is required for a new installation'],
    [{ adminEmail: 'not-an-email' }, '--admin-email "not-an-email" is not an email address'],
    [{ adminPassword: undefined }, '--admin-password-file is required for a new installation'],
    [{ adminPassword: 'short1!' }, 'the admin password must be at least 8 characters'],
    [{ adminPassword: 'nouppercase-1' }, 'the admin password must contain an uppercase letter'],
    [{ timezone: 'Mars/Olympus' }, '--timezone "Mars/Olympus" is not an IANA time zone'],
    [{ port: 70000 }, '--port must be 1-65535, got 70000'],
    [{ baseUrl: 'analytics.example.com' }, '--base-url must be an http(s) URL, got "analytics.example.com"'],
    [{ prefix: 'opt/pp' }, '--prefix must be an absolute path, got opt/pp'],
    [{ tls: { mode: 'files', cert: path.join(dir, 'no.crt'), key: path.join(dir, 'no.key') } }, /no\.crt is not a readable PEM certificate/],
  ];
  for (const [change, message] of cases) t.throws(() => checkInstallOptions({ ...base, ...owner, ...change }, true), { message }, JSON.stringify(change));
  await t.rejects(resolveInstallOptions({ configDir: path.join(dir, 'etc'), signupMode: 'open' }, false), { message: '--signup-mode must be legacy or closed, got "open"' });
});

t.test('ppctl install refuses to run from a source checkout', async (t) => {
  const dir = await tempDir(t);
  writeFileSync(path.join(dir, 'pw'), 'Good-pass-1\n');
  const res = await runPpctl([
    'install',
    '--yes',
    '--prefix',
    path.join(dir, 'opt'),
    '--data-dir',
    path.join(dir, 'data'),
    '--config-dir',
    path.join(dir, 'etc'),
    '--admin-email',
    'o@example.com',
    '--admin-password-file',
    path.join(dir, 'pw'),
    '--no-systemd',
    '--user',
    'root',
  ]);
  t.equal(res.code, 1);
  t.match(res.stderr, /ppctl install runs from an unpacked release bundle \(build one with `npm run bundle`\); this is a source checkout/);
});

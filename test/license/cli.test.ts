// The vendor commands end to end: spawn the compiled keygen and sign, then verify what
// they produced the way the appliance will.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { entitlementsOf } from '../../license/entitlements.js';
import { licenseState } from '../../license/licenseState.js';
import { builtinKeysDir, loadTrustedKeys } from '../../license/trustedKeys.js';
import { verifyLicense } from '../../license/verifyLicense.js';
import { refusal } from './licenseFixtures.js';
import { processTempDir } from '../support/tempDir.js';

const keygenJs = fileURLToPath(new URL('../../license/cli/keygen.js', import.meta.url));
const signJs = fileURLToPath(new URL('../../license/cli/sign.js', import.meta.url));

function run(script: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function keygen(kid: string): string {
  const dir = processTempDir('pp-vendor-');
  const r = run(keygenJs, ['--out', dir, '--kid', kid]);
  if (r.status !== 0) throw new Error(`keygen failed: ${r.stderr}`);
  return dir;
}

t.test('keygen writes a public SPKI key and a private key readable only by its owner', async (t) => {
  const dir = processTempDir('pp-vendor-');
  const r = run(keygenJs, ['--out', join(dir, 'nested'), '--kid', 'vendor-2027-a']);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /kid: vendor-2027-a/);
  const publicPem = readFileSync(join(dir, 'nested', 'vendor-2027-a.pem'), 'utf8');
  const privatePem = readFileSync(join(dir, 'nested', 'vendor-2027-a.key.pem'), 'utf8');
  t.match(publicPem, /^-----BEGIN PUBLIC KEY-----/);
  t.match(privatePem, /^-----BEGIN PRIVATE KEY-----/);
  t.equal(statSync(join(dir, 'nested', 'vendor-2027-a.key.pem')).mode & 0o777, 0o600);
  const again = run(keygenJs, ['--out', join(dir, 'nested'), '--kid', 'vendor-2027-a']);
  t.not(again.status, 0, 'refuses to overwrite an existing key');
  t.match(again.stderr, /already exists/);
  // Pointing the trust directory at the vendor's own folder is refused, not half-used.
  t.throws(() => loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: join(dir, 'nested') }), {
    name: 'TrustedKeyError',
    file: join(dir, 'nested', 'vendor-2027-a.key.pem'),
  });
});

t.test('keygen invents a kid when none is given and refuses a bad one', async (t) => {
  const dir = processTempDir('pp-vendor-');
  const r = run(keygenJs, ['--out', dir]);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /kid: pp-\d{8}-[0-9a-f]{6}\n/);
  const bad = run(keygenJs, ['--out', dir, '--kid', '../escape']);
  t.not(bad.status, 0);
  t.match(bad.stderr, /kid "\.\.\/escape" must be/);
});

t.test('sign writes a license the appliance verifies, kid taken from the key file name', async (t) => {
  const dir = keygen('vendor-2027-b');
  const out = join(dir, 'acme.license');
  const r = run(signJs, [
    '--key',
    join(dir, 'vendor-2027-b.key.pem'),
    '--licensee',
    'Acme Corp',
    '--features',
    'actor_drilldown, saved_segments',
    '--expires',
    '2027-06-30',
    '--sub',
    'cus_acme',
    '--edition',
    'enterprise',
    '--grace-days',
    '10',
    '--install-id',
    'inst-7',
    '--not-before',
    '2026-01-01',
    '--limits',
    '{"projects":5}',
    '--out',
    out,
  ]);
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout, '', 'nothing on stdout when writing a file');
  const token = readFileSync(out, 'utf8');
  const trustedKeys = loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: processTempDir('pp-trust-') });
  t.equal((await refusal(token, { trustedKeys, now: new Date('2026-06-01T00:00:00Z'), installId: 'inst-7' }))?.check, 'kid', 'not trusted until its public key is configured');

  // Trust the vendor's folder as the configured directory would: only <kid>.pem is read.
  const keys = loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: publicOnly(dir, 'vendor-2027-b') });
  const license = await verifyLicense(token, { trustedKeys: keys, now: new Date('2026-06-01T00:00:00Z'), installId: 'inst-7' });
  t.equal(license.kid, 'vendor-2027-b');
  t.equal(license.licensee, 'Acme Corp');
  t.equal(license.customer_id, 'cus_acme');
  t.equal(license.edition, 'enterprise');
  t.same(license.features, ['actor_drilldown', 'saved_segments']);
  t.same(license.limits, { projects: 5 });
  t.equal(license.grace_days, 10);
  t.equal(license.install_id, 'inst-7');
  t.equal(license.not_before.toISOString(), '2026-01-01T00:00:00.000Z');
  t.equal(license.expires_at.toISOString(), '2027-07-01T00:00:00.000Z', 'valid through the whole last day');
  t.same([...entitlementsOf(licenseState(license, new Date('2026-06-01T00:00:00Z')))].sort(), ['actor_drilldown', 'saved_segments']);
});

t.test('sign prints the token with defaults and warns about unknown features', async (t) => {
  const dir = keygen('vendor-2027-c');
  const r = run(signJs, ['--key', join(dir, 'vendor-2027-c.key.pem'), '--licensee', 'Beta GmbH', '--features', 'saved_segments,teleport', '--expires', '2030-01-01T12:00:00Z']);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stderr, /unknown features grant nothing on this version: teleport/);
  const keys = loadTrustedKeys({ builtinDir: builtinKeysDir(), extraDir: publicOnly(dir, 'vendor-2027-c') });
  const license = await verifyLicense(r.stdout, { trustedKeys: keys, now: new Date() });
  t.equal(license.customer_id, 'beta-gmbh');
  t.equal(license.edition, 'standard');
  t.equal(license.grace_days, 14);
  t.equal(license.install_id, undefined);
  t.equal(license.expires_at.toISOString(), '2030-01-01T12:00:00.000Z');
  t.same([...entitlementsOf(licenseState(license, new Date()))], ['saved_segments']);
});

t.test('sign with an explicit --kid uses it', async (t) => {
  const dir = keygen('vendor-2027-d');
  const r = run(signJs, ['--key', join(dir, 'vendor-2027-d.key.pem'), '--kid', 'renamed', '--licensee', 'X', '--features', 'saved_segments', '--expires', '2030-01-01']);
  t.equal(r.status, 0, r.stderr);
  t.equal(JSON.parse(Buffer.from(r.stdout.split('.')[0]!, 'base64url').toString()).kid, 'renamed');
});

t.test('sign refuses bad input with a reason and a non-zero exit', async (t) => {
  const dir = keygen('vendor-2027-e');
  const key = join(dir, 'vendor-2027-e.key.pem');
  const base = ['--licensee', 'X', '--features', 'saved_segments'];
  const cases: [string, string[], RegExp][] = [
    ['bad date', ['--key', key, ...base, '--expires', 'next tuesday'], /"next tuesday" is not a date/],
    ['negative grace', ['--key', key, ...base, '--expires', '2030-01-01', '--grace-days', '-1'], /whole number of days/],
    ['limits not an object', ['--key', key, ...base, '--expires', '2030-01-01', '--limits', '[1]'], /JSON object/],
    ['public key given as private', ['--key', join(dir, 'vendor-2027-e.pem'), ...base, '--expires', '2030-01-01'], /cannot read private key/],
    ['missing key file', ['--key', join(dir, 'nope.key.pem'), ...base, '--expires', '2030-01-01'], /cannot read private key .*nope\.key\.pem/],
    ['missing --expires', ['--key', key, ...base], /--expires/],
  ];
  for (const [name, args, message] of cases) {
    const r = run(signJs, args);
    t.not(r.status, 0, `${name}: exit code`);
    t.match(r.stderr, message, `${name}: reason`);
    t.equal(r.stdout, '', `${name}: no token printed`);
  }
});

// A trust directory holding just the public key, as an administrator would set it up.
function publicOnly(vendorDir: string, kid: string): string {
  const dir = processTempDir('pp-trust-');
  copyFileSync(join(vendorDir, `${kid}.pem`), join(dir, `${kid}.pem`));
  return dir;
}

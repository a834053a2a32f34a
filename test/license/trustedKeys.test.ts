// Trusted keys: the built-ins shipped in license/keys/, one configured directory, and
// every kind of bad key file refused with the file named.
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import t from 'tap';
import { builtinKeysDir, loadTrustedKeys, TrustedKeyError } from '../../license/trustedKeys.js';
import { makeSigner, trustDir } from './licenseFixtures.js';
import { processTempDir } from '../support/tempDir.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const builtinDir = builtinKeysDir();

function loadError(fn: () => unknown): TrustedKeyError | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    if (err instanceof TrustedKeyError) return err;
    throw err;
  }
}

t.test('the built-in keys dir is found from compiled code and from source paths', async (t) => {
  t.equal(builtinDir, join(repoRoot, 'license', 'keys'));
  t.equal(builtinKeysDir(pathToFileURL(join(repoRoot, 'dist', 'license', 'trustedKeys.js')).href), join(repoRoot, 'license', 'keys'));
  t.equal(builtinKeysDir(join(repoRoot, 'license', 'trustedKeys.ts')), join(repoRoot, 'license', 'keys'));
  t.throws(() => builtinKeysDir('/'), /package\.json/);
});

t.test('the built-ins are a current and a next Ed25519 public key, and no private key', async (t) => {
  const keys = loadTrustedKeys({ builtinDir });
  t.same([...keys.keys()].sort(), ['pp-2026-a', 'pp-2026-b']);
  for (const key of keys.values()) {
    t.equal(key.key.asymmetricKeyType, 'ed25519');
    t.equal(key.key.type, 'public');
    t.equal(key.builtin, true);
  }
  t.notOk(keys.get('pp-2026-a')!.key.equals(keys.get('pp-2026-b')!.key), 'two different keys');
  for (const name of readdirSync(builtinDir)) {
    t.notMatch(readFileSync(join(builtinDir, name), 'utf8'), /PRIVATE KEY/, `${name} holds no private key`);
  }
});

t.test('a configured directory adds its keys; other files are ignored', async (t) => {
  const dir = trustDir(makeSigner('customer-test-1'), makeSigner('customer-test-2'));
  writeFileSync(join(dir, 'README.txt'), 'keys for the staging appliance');
  const keys = loadTrustedKeys({ builtinDir, extraDir: dir });
  t.same([...keys.keys()].sort(), ['customer-test-1', 'customer-test-2', 'pp-2026-a', 'pp-2026-b']);
  t.equal(keys.get('customer-test-1')?.builtin, false);
  t.equal(keys.get('customer-test-1')?.source, join(dir, 'customer-test-1.pem'));
});

t.test('a copy of a built-in key is tolerated, a different key under its kid is not', async (t) => {
  const copy = processTempDir('pp-license-keys-');
  copyFileSync(join(builtinDir, 'pp-2026-a.pem'), join(copy, 'pp-2026-a.pem'));
  t.equal(loadTrustedKeys({ builtinDir, extraDir: copy }).get('pp-2026-a')?.builtin, true);
  const hijack = trustDir(makeSigner('pp-2026-a'));
  const err = loadError(() => loadTrustedKeys({ builtinDir, extraDir: hijack }));
  t.equal(err?.file, join(hijack, 'pp-2026-a.pem'));
  t.match(err?.message, /already trusted with a different key/);
});

t.test('bad key files are refused, naming the file', async (t) => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ed = generateKeyPairSync('ed25519');
  const cases: [string, string, string | Buffer, RegExp][] = [
    ['RSA public key', 'rsa.pem', rsa.publicKey.export({ type: 'spki', format: 'pem' }), /rsa key; only Ed25519/],
    ['EC public key', 'ec.pem', ec.publicKey.export({ type: 'spki', format: 'pem' }), /ec key; only Ed25519/],
    ['Ed25519 private key', 'priv.pem', ed.privateKey.export({ type: 'pkcs8', format: 'pem' }), /not an SPKI public key/],
    ['garbage in a PEM frame', 'junk.pem', '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n', /cannot be parsed/],
    ['empty file', 'empty.pem', '', /not an SPKI public key/],
    ['private key named as keygen names it', 'vendor.key.pem', ed.publicKey.export({ type: 'spki', format: 'pem' }), /\.key\.pem private key does not belong/],
    ['kid with a space', 'my key.pem', ed.publicKey.export({ type: 'spki', format: 'pem' }), /named <kid>\.pem/],
  ];
  for (const [name, file, content, message] of cases) {
    const dir = processTempDir('pp-license-keys-');
    writeFileSync(join(dir, file), content);
    const err = loadError(() => loadTrustedKeys({ builtinDir, extraDir: dir }));
    t.equal(err?.file, join(dir, file), `${name}: file named`);
    t.match(err?.message, message, name);
    t.ok(err?.message.includes(join(dir, file)), `${name}: path in message`);
  }
});

t.test('unreadable key file or directory is refused, naming it', async (t) => {
  const missing = join(tmpdir(), 'pp-license-keys-does-not-exist');
  const err = loadError(() => loadTrustedKeys({ builtinDir, extraDir: missing }));
  t.equal(err?.file, missing);
  t.match(err?.message, /Cannot read the trusted license keys directory/);
  // A directory named like a key cannot be read as a file.
  const dir = processTempDir('pp-license-keys-');
  mkdirSync(join(dir, 'odd.pem'));
  const fileErr = loadError(() => loadTrustedKeys({ builtinDir, extraDir: dir }));
  t.equal(fileErr?.file, join(dir, 'odd.pem'));
  t.match(fileErr?.message, /Cannot read trusted license key/);
});

t.test('an empty built-in directory is an error, not an appliance that trusts nothing', async (t) => {
  const empty = processTempDir('pp-license-keys-');
  t.match(loadError(() => loadTrustedKeys({ builtinDir: empty }))?.message, /No built-in license keys/);
});

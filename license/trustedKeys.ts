// Loads the Ed25519 public keys a license may be signed with: the built-in keys shipped
// in license/keys/ plus, optionally, one configured directory. Nothing else adds trust.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface TrustedKey {
  kid: string;
  key: KeyObject;
  // The file the key came from, so `ppctl license show` can say why a kid is trusted.
  source: string;
  builtin: boolean;
}

export type TrustedKeys = ReadonlyMap<string, TrustedKey>;

export interface LoadTrustedKeysOptions {
  builtinDir: string;
  // From PP_LICENSE_TRUSTED_KEYS / license.trusted_keys_dir; absent means built-ins only.
  extraDir?: string;
}

export class TrustedKeyError extends Error {
  override readonly name = 'TrustedKeyError';
  readonly file: string;

  constructor(file: string, message: string) {
    super(message);
    this.file = file;
  }
}

// Kids end up in messages and logs; keeping them to a tame alphabet avoids quoting games.
const KID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function readKey(file: string, kid: string, builtin: boolean): TrustedKey {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new TrustedKeyError(file, `Cannot read trusted license key ${file}: ${(err as Error).message}`);
  }
  // createPublicKey would happily derive a public key from a private one; a private key
  // lying in a trust directory is a mistake worth stopping on, not papering over.
  if (!/^-----BEGIN PUBLIC KEY-----$/m.test(pem)) {
    throw new TrustedKeyError(file, `Trusted license key ${file} is not an SPKI public key (expected "-----BEGIN PUBLIC KEY-----").`);
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch (err) {
    throw new TrustedKeyError(file, `Trusted license key ${file} cannot be parsed: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new TrustedKeyError(file, `Trusted license key ${file} is a ${key.asymmetricKeyType ?? 'unknown'} key; only Ed25519 keys are accepted.`);
  }
  return { kid, key, source: file, builtin };
}

function listKeyFiles(dir: string): { kid: string; file: string }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new TrustedKeyError(dir, `Cannot read the trusted license keys directory ${dir}: ${(err as Error).message}`);
  }
  const found: { kid: string; file: string }[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.pem')) continue;
    const file = join(dir, name);
    const kid = name.slice(0, -'.pem'.length);
    if (!KID_PATTERN.test(kid) || kid.endsWith('.key')) {
      throw new TrustedKeyError(file, `Trusted license key ${file}: the file must be named <kid>.pem with a kid of letters, digits, ".", "_" or "-" (a *.key.pem private key does not belong here).`);
    }
    found.push({ kid, file });
  }
  return found;
}

export function loadTrustedKeys(options: LoadTrustedKeysOptions): TrustedKeys {
  const keys = new Map<string, TrustedKey>();
  for (const { kid, file } of listKeyFiles(options.builtinDir)) keys.set(kid, readKey(file, kid, true));
  if (keys.size === 0) {
    throw new TrustedKeyError(options.builtinDir, `No built-in license keys found in ${options.builtinDir}.`);
  }
  if (options.extraDir === undefined) return keys;
  for (const { kid, file } of listKeyFiles(options.extraDir)) {
    const extra = readKey(file, kid, false);
    const existing = keys.get(kid);
    // A copy of a built-in key is harmless; a different key under a built-in kid would
    // silently replace the vendor's key, so it is refused.
    if (existing && !existing.key.equals(extra.key)) {
      throw new TrustedKeyError(file, `Trusted license key ${file} uses kid "${kid}", which is already trusted with a different key from ${existing.source}.`);
    }
    if (!existing) keys.set(kid, extra);
  }
  return keys;
}

// Compiled code runs from dist/license/, sources from license/; both sit below the
// directory holding package.json, where license/keys/ lives.
export function builtinKeysDir(from: string = import.meta.url): string {
  let dir = dirname(from.startsWith('file:') ? fileURLToPath(from) : resolve(from));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'license', 'keys');
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Cannot find package.json above ${from} to locate license/keys.`);
    dir = parent;
  }
}

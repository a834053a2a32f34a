// Vendor command: signs a license for a customer with a private key made by keygen and
// prints the token or writes it to a file.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { isEntitlement } from '../entitlements.js';
import { signLicense } from '../signLicense.js';

interface SignOptions {
  key: string;
  kid?: string;
  licensee: string;
  features: string[];
  expires: Date;
  sub?: string;
  edition: string;
  graceDays: number;
  installId?: string;
  notBefore?: Date;
  limits?: Record<string, unknown>;
  out?: string;
}

const DAY_MS = 86_400_000;

// A bare date means "valid through that day", so expiry is the following UTC midnight.
function parseExpiry(value: string): Date {
  const date = parseDate(value);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(date.getTime() + DAY_MS) : date;
}

function parseDate(value: string): Date {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const date = new Date(bare ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError(`"${value}" is not a date (YYYY-MM-DD or ISO 8601).`);
  return date;
}

function parseFeatures(value: string): string[] {
  return value
    .split(',')
    .map((f) => f.trim())
    .filter((f) => f !== '');
}

function parseGraceDays(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number of days, 0 or more.');
  return n;
}

function parseLimits(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new InvalidArgumentError('must be a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError('must be a JSON object.');
  return parsed as Record<string, unknown>;
}

// keygen writes <kid>.key.pem, so the file name already carries the kid.
function kidFromKeyFile(file: string): string {
  return basename(file).replace(/(\.key)?\.pem$/, '');
}

function slug(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'customer'
  );
}

function readPrivateKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: readFileSync(file, 'utf8'), format: 'pem' });
  } catch (err) {
    throw new Error(`cannot read private key ${file}: ${(err as Error).message}`);
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`private key ${file} is not an Ed25519 key.`);
  return key;
}

async function run(opts: SignOptions): Promise<void> {
  const privateKey = readPrivateKey(opts.key);
  const unknown = opts.features.filter((f) => !isEntitlement(f));
  // Kept in the license (a newer appliance may know them) but worth a second look.
  if (unknown.length > 0) process.stderr.write(`warning: unknown features grant nothing on this version: ${unknown.join(', ')}\n`);
  const now = new Date();
  const token = await signLicense(
    {
      customerId: opts.sub ?? slug(opts.licensee),
      licensee: opts.licensee,
      edition: opts.edition,
      features: opts.features,
      limits: opts.limits ?? {},
      graceDays: opts.graceDays,
      ...(opts.installId !== undefined ? { installId: opts.installId } : {}),
      expiresAt: opts.expires,
      notBefore: opts.notBefore ?? now,
      issuedAt: now,
    },
    privateKey,
    opts.kid ?? kidFromKeyFile(opts.key),
  );
  if (opts.out) {
    writeFileSync(opts.out, `${token}\n`, { mode: 0o644 });
    process.stderr.write(`license written to ${opts.out}\n`);
  } else {
    process.stdout.write(`${token}\n`);
  }
}

const program = new Command()
  .name('license:sign')
  .description('Sign a pp license.')
  .requiredOption('--key <file>', 'Ed25519 private key (PKCS8 PEM) made by license:keygen')
  .option('--kid <kid>', 'key id to put in the header (default: the key file name without .key.pem)')
  .requiredOption('--licensee <name>', 'customer name shown in the appliance')
  .requiredOption('--features <list>', 'comma-separated features, e.g. actor_drilldown,saved_segments', parseFeatures)
  .requiredOption('--expires <date>', 'last valid day (YYYY-MM-DD, UTC) or an exact ISO 8601 time', parseExpiry)
  .option('--sub <id>', 'customer id (default: derived from the licensee)')
  .option('--edition <name>', 'edition name', 'standard')
  .option('--grace-days <n>', 'days the features stay on after expiry', parseGraceDays, 14)
  .option('--install-id <id>', 'bind the license to one installation')
  .option('--not-before <date>', 'first valid moment (default: now)', parseDate)
  .option('--limits <json>', 'limits object as JSON, e.g. {"projects":10}', parseLimits)
  .option('--out <file>', 'write the token to this file instead of stdout')
  .action(run);

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`license:sign: ${(err as Error).message}\n`);
  process.exit(1);
});

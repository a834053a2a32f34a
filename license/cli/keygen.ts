// Vendor command: creates an Ed25519 license signing keypair, <kid>.pem (public, to ship
// in license/keys/ or a trusted keys directory) and <kid>.key.pem (private, kept by the vendor).
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';

// The kid becomes a file name and a header value the appliance matches exactly.
const KID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function defaultKid(now: Date): string {
  return `pp-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}`;
}

const program = new Command()
  .name('license:keygen')
  .description('Create an Ed25519 keypair for signing pp licenses.')
  .requiredOption('--out <dir>', 'directory to write <kid>.pem and <kid>.key.pem into')
  .option('--kid <kid>', 'key id (default: pp-<date>-<random>)')
  .action((opts: { out: string; kid?: string }) => {
    const kid = opts.kid ?? defaultKid(new Date());
    if (!KID_PATTERN.test(kid) || kid.endsWith('.key')) {
      throw new Error(`kid "${kid}" must be letters, digits, ".", "_" or "-" (at most 64) and must not end in ".key".`);
    }
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    mkdirSync(opts.out, { recursive: true });
    const publicFile = join(opts.out, `${kid}.pem`);
    const privateFile = join(opts.out, `${kid}.key.pem`);
    // 'wx' refuses to overwrite: replacing a signing key by accident would orphan every
    // license signed with it.
    writeFileSync(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600, flag: 'wx' });
    writeFileSync(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644, flag: 'wx' });
    process.stdout.write(`kid: ${kid}\npublic key: ${publicFile}\nprivate key: ${privateFile} (keep it secret; never ship it)\n`);
  });

try {
  program.parse();
} catch (err) {
  process.stderr.write(`license:keygen: ${(err as Error).message}\n`);
  process.exit(1);
}

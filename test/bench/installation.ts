// Prepares a data directory for `ppctl serve` while no server holds it: an owner, an organization,
// one project per generated project (with its time zone), browser and server ingestion keys, a
// license unlocking the gated features (signed by a key pair made for this directory), and
// optionally the generated events written straight into the event store.

import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadRecordings, STORE_LAYOUT } from './recordingsWriter.js';
import { signLicense } from '../../license/index.js';
import { loadConfig } from '../../server/ground/config.js';
import { openServices } from '../../server/openServices.js';
import { createUser } from '../../server/accounts/users.js';
import { addMembership, createOrganization } from '../../server/accounts/organizations.js';
import { createProject } from '../../server/accounts/projects.js';
import { issueIngestKey } from '../../server/keys/ingestKeys.js';
import { PROJECTS } from './generate.js';
import type { DataSet } from './dataSet.js';
import { loadEventStore, type LoadStats } from './storeWriter.js';

export interface InstalledProject {
  id: number;
  key: string;
  timezone: string;
  browserKey: { publicId: string; value: string };
  serverKey: { publicId: string; value: string };
}

export interface Installation {
  dataDir: string;
  /** Directory of the public key that signed the license (license.trusted_keys_dir). */
  licenseKeysDir: string;
  email: string;
  password: string;
  projects: InstalledProject[];
  /** The data set loaded into the store, if any. */
  generated: { seed: number; events: number; version: number; store?: number } | null;
  /** Recorded sessions of the main project and their chunks. */
  recordings?: { sessions: number; chunks: number };
  load?: LoadStats;
}

const MANIFEST = 'bench-installation.json';
const KID = 'pp-bench';
const PASSWORD = 'Bench-Owner-Password-2026';

/** Environment a server (or this process) needs to open the installation as the bench does. */
export function installationEnv(inst: Pick<Installation, 'dataDir' | 'licenseKeysDir'>): Record<string, string> {
  return { PP_DATA_DIR: inst.dataDir, PP_LICENSE_TRUSTED_KEYS: inst.licenseKeysDir, PP_LOG_LEVEL: 'warn' };
}

/** A previously prepared directory holding exactly this data set, if there is one. */
export function existingInstallation(dataDir: string, generated: Installation['generated']): Installation | undefined {
  const file = path.join(dataDir, MANIFEST);
  if (!existsSync(file)) return undefined;
  const inst = JSON.parse(readFileSync(file, 'utf8')) as Installation;
  return JSON.stringify(inst.generated) === JSON.stringify(generated) ? inst : undefined;
}

export async function createInstallation(dataDir: string, data: DataSet | null): Promise<Installation> {
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const licenseKeysDir = path.join(dataDir, 'bench-license-keys');
  mkdirSync(licenseKeysDir, { recursive: true });
  const pair = generateKeyPairSync('ed25519');
  writeFileSync(path.join(licenseKeysDir, `${KID}.pem`), pair.publicKey.export({ type: 'spki', format: 'pem' }));
  const config = loadConfig({ env: installationEnv({ dataDir, licenseKeysDir }) });
  const opened = await openServices(config);
  try {
    const { services } = opened;
    const now = services.clock.now();
    const email = 'bench-owner@pp.local';
    const owner = await createUser(services.meta, { email, password: PASSWORD, name: 'Bench owner' }, now);
    const org = createOrganization(services.meta, 'Bench organization', now);
    addMembership(services.meta, org.id, owner.id, 'owner', now);
    const year = new Date(now.getTime() + 365 * 86_400_000);
    const projects = PROJECTS.map((spec): InstalledProject => {
      const project = createProject(services.meta, { orgId: org.id, name: spec.name, timezone: spec.timezone }, now);
      const browser = issueIngestKey(services, project.id, { type: 'browser', name: 'site', domains: [spec.host], expires_at: year.toISOString() }, owner.id);
      const server = issueIngestKey(services, project.id, { type: 'server', name: 'backend' }, owner.id);
      return {
        id: project.id,
        key: spec.key,
        timezone: spec.timezone,
        browserKey: { publicId: browser.key.public_id, value: browser.value },
        serverKey: { publicId: server.key.public_id, value: server.value },
      };
    });
    const license = await signLicense(
      {
        customerId: 'bench',
        licensee: 'Benchmark',
        edition: 'scale',
        features: ['actor_drilldown', 'saved_segments'],
        graceDays: 14,
        issuedAt: new Date(now.getTime() - 86_400_000),
        expiresAt: year,
      },
      pair.privateKey,
      KID,
    );
    await services.license.apply(license);
    const inst: Installation = { dataDir, licenseKeysDir, email, password: PASSWORD, projects, generated: null };
    if (data) {
      const keys = projects.map((p) => ({ id: p.id, browserKey: p.browserKey.publicId, serverKey: p.serverKey.publicId }));
      inst.load = await services.events.useWriter((conn) => loadEventStore(conn, data, keys));
      // Recordings of the main project's latest sessions, for the recordings list.
      inst.recordings = await services.events.useWriter((conn) => loadRecordings(conn, projects[0]!.id, projects[0]!.browserKey.publicId));
      inst.generated = { seed: data.seed, events: data.events, version: data.version, store: STORE_LAYOUT };
    }
    writeFileSync(path.join(dataDir, MANIFEST), JSON.stringify(inst, null, 2));
    return inst;
  } finally {
    await opened.close();
  }
}

// Import throughput from a local file (`node dist/test/bench/importBench.js [--events N]`): writes
// PostHog batch-export JSON lines and pp's own NDJSON of N events, imports each into a fresh project
// of a fresh installation the way `ppctl import` does without a server, and prints events per
// second, the file's size and the process's peak memory. The target is at least 100,000 events/s.

import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../../server/ground/config.js';
import { openServices } from '../../server/openServices.js';
import { createLogger } from '../../server/ground/logger.js';
import { createOrganization } from '../../server/accounts/organizations.js';
import { createProject } from '../../server/accounts/projects.js';
import { jobRunner, getJob } from '../../server/store/jobs.js';
import { registerTransferJobs } from '../../server/transfer/transferWorkers.js';
import { startImport } from '../../server/transfer/startTransfer.js';
import { transferRow } from '../../server/transfer/transferJobs.js';
import type { ImportFormat } from '../../server/transfer/importJob.js';

export const IMPORT_TARGET_EVENTS_PER_SECOND = 100_000;

const uuidOf = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;

/** One generated event: a page view or a purchase of one of 10,000 people over 90 days. */
function lineOf(i: number, format: ImportFormat): string {
  const ts = new Date(Date.UTC(2024, 0, 1) + (i % 90) * 86_400_000 + (i % 86_400) * 1000).toISOString();
  const user = `user-${i % 10_000}`;
  const buy = i % 10 === 0;
  if (format === 'posthog') {
    const props = buy ? `{"revenue":${(i % 50) + 0.99},"$lib":"web"}` : `{"$current_url":"https://shop.example/p/${i % 200}","$device_id":"d-${i % 10_000}","$lib":"web"}`;
    return `{"uuid":"${uuidOf(i)}","event":"${buy ? 'purchase' : '$pageview'}","distinct_id":"${user}","team_id":1,"timestamp":"${ts.replace('T', ' ').replace('Z', '')}","properties":${props}}\n`;
  }
  return `{"uuid":"${uuidOf(i)}","ts":"${ts}","received_at":"${ts}","event":"${buy ? 'purchase' : 'pp.page_view'}","distinct_id":"${user}","anonymous_id":null,"user_id":"${user}","session_id":"s-${i % 50_000}","source":"browser","sdk_name":null,"sdk_version":null,"key_id":null,"release":null,"url":"https://shop.example/p/${i % 200}","path":"/p/${i % 200}","referrer":null,"props":${buy ? `{"revenue":${(i % 50) + 0.99}}` : '{"category":"shoes"}'},"revenue":${buy ? (i % 50) + 0.99 : null},"elements":null,"invalid":false,"invalid_reasons":[],"rule_id":null,"source_uuid":null}\n`;
}

async function writeFile(file: string, n: number, format: ImportFormat): Promise<void> {
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) if (!out.write(lineOf(i, format))) await once(out, 'drain');
  out.end();
  await once(out, 'finish');
}

export interface ImportBenchResult {
  format: ImportFormat;
  events: number;
  fileBytes: number;
  seconds: number;
  eventsPerSecond: number;
  rssPeakMb: number;
}

export async function benchImport(n: number, format: ImportFormat): Promise<ImportBenchResult> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-import-bench-'));
  try {
    const file = path.join(dir, `events.${format === 'posthog' ? 'jsonl' : 'ndjson'}`);
    await writeFile(file, n, format);
    const config = loadConfig({ env: {}, flags: { data_dir: path.join(dir, 'data'), log_level: 'warn' } });
    const opened = await openServices(config, { log: createLogger('warn', process.stderr as unknown as import('pino').DestinationStream) });
    try {
      const { services } = opened;
      const org = createOrganization(services.meta, 'Bench', services.clock.now());
      const project = createProject(services.meta, { orgId: org.id, name: 'Imported', timezone: 'UTC' }, services.clock.now());
      let peak = process.memoryUsage().rss;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      const started = process.hrtime.bigint();
      registerTransferJobs(services, jobRunner(services));
      const { id } = startImport(services, { projectId: project.id, userId: null, format, files: [{ path: file, name: path.basename(file) }], map: [] });
      while (!['succeeded', 'failed'].includes(getJob(services.meta, id)!.state)) await new Promise((resolve) => setTimeout(resolve, 50));
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      clearInterval(sampler);
      const job = getJob(services.meta, id)!;
      if (job.state !== 'succeeded') throw new Error(`the import failed: ${job.error}`);
      const stored = transferRow(services.meta, id)!.stored;
      if (stored !== n) throw new Error(`stored ${stored} of ${n} events`);
      return { format, events: n, fileBytes: statSync(file).size, seconds, eventsPerSecond: Math.round(n / seconds), rssPeakMb: Math.round(peak / 2 ** 20) };
    } finally {
      await opened.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const { values } = parseArgs({ options: { events: { type: 'string', default: '1000000' } } });
  const n = Number(values.events);
  for (const format of (process.env.FORMATS ?? 'posthog,ndjson').split(',') as ImportFormat[]) {
    const r = await benchImport(n, format);
    const verdict = r.eventsPerSecond >= IMPORT_TARGET_EVENTS_PER_SECOND ? 'meets' : 'MISSES';
    process.stdout.write(
      `import ${format}: ${r.events} events (${(r.fileBytes / 2 ** 20).toFixed(0)} MiB) in ${r.seconds.toFixed(2)} s = ${r.eventsPerSecond} events/s (${verdict} the ${IMPORT_TARGET_EVENTS_PER_SECOND}/s target), peak RSS ${r.rssPeakMb} MiB\n`,
    );
  }
}

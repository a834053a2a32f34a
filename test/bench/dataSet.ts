// A generated data set on disk (events as CSV, one file per week of receipt, and identity links),
// written once and loaded into both engines so they answer over the same rows; each loader maps
// project indexes and epoch milliseconds onto its own ids and types.

import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pathOf, parseRevenue } from '../../server/ingest/normalizeEvent.js';
import { dayNumber } from '../../server/engine/dates.js';
import { DATA_FROM, DATA_TO, generate, GENERATOR_VERSION, type GenerateOptions } from './generate.js';

/** Column order of the event files. */
export const EVENT_COLUMNS = [
  'p',
  'uuid',
  'ts_ms',
  'received_ms',
  'event',
  'distinct_id',
  'anonymous_id',
  'user_id',
  'session_id',
  'source',
  'release',
  'url',
  'path',
  'referrer',
  'props',
  'revenue',
  'elements',
] as const;
export const LINK_COLUMNS = ['p', 'distinct_id', 'actor_id', 'linked_ms'] as const;

/** The null marker both DuckDB's and ClickHouse's CSV readers accept. */
export const NULL = '\\N';

export interface DataSet {
  dir: string;
  seed: number;
  events: number;
  version: number;
  links: number;
  eventFiles: string[];
  linkFile: string;
  generateMs: number;
  bytes: number;
}

const MANIFEST = 'data-set.json';
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const FIRST_MS = (dayNumber(DATA_FROM) - 1) * DAY_MS;
const WEEKS = Math.ceil(((dayNumber(DATA_TO) + 2) * DAY_MS - FIRST_MS) / WEEK_MS);

const quoted = (s: string | null): string => (s === null ? NULL : `"${s.replaceAll('"', '""')}"`);
const plain = (s: string | null): string => (s === null ? NULL : s);

class CsvFile {
  private parts: string[] = [];
  private size = 0;
  bytes = 0;
  private readonly fd: number;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w');
  }

  line(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size > 1 << 20) this.flush();
  }

  flush(): void {
    if (this.parts.length === 0) return;
    const chunk = this.parts.join('\n') + '\n';
    this.bytes += writeSync(this.fd, chunk);
    this.parts = [];
    this.size = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** The data set in `dir` if it was generated with these options by this generator version. */
export function existingDataSet(dir: string, options: GenerateOptions): DataSet | undefined {
  const file = path.join(dir, MANIFEST);
  if (!existsSync(file)) return undefined;
  const ds = JSON.parse(readFileSync(file, 'utf8')) as DataSet;
  return ds.seed === options.seed && ds.events === options.events && ds.version === GENERATOR_VERSION ? ds : undefined;
}

export function writeDataSet(dir: string, options: GenerateOptions): DataSet {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const started = performance.now();
  const weeks = Array.from({ length: WEEKS }, (_, w) => new CsvFile(path.join(dir, `events-w${String(w).padStart(2, '0')}.csv`)));
  const links = new CsvFile(path.join(dir, 'identity-links.csv'));
  let linkCount = 0;
  generate(options, {
    event(p, e) {
      const week = Math.min(WEEKS - 1, Math.max(0, Math.floor((e.receivedAt - FIRST_MS) / WEEK_MS)));
      const revenue = parseRevenue(e.props?.revenue).revenue;
      weeks[week]!.line(
        [
          p,
          e.uuid,
          e.ts,
          e.receivedAt,
          plain(e.event),
          plain(e.userId ?? e.anonymousId),
          plain(e.anonymousId),
          plain(e.userId),
          plain(e.sessionId),
          e.source,
          e.release,
          quoted(e.url),
          quoted(pathOf(e.url)),
          quoted(e.referrer),
          quoted(e.props ? JSON.stringify(e.props) : null),
          revenue === null ? NULL : revenue,
          quoted(e.elements ? JSON.stringify(e.elements) : null),
        ].join(','),
      );
    },
    link(p, l) {
      links.line(`${p},${l.distinctId},${l.actorId},${l.linkedAt}`);
      linkCount += 1;
    },
  });
  for (const w of weeks) w.close();
  links.close();
  const ds: DataSet = {
    dir,
    seed: options.seed,
    events: options.events,
    version: GENERATOR_VERSION,
    links: linkCount,
    eventFiles: weeks.map((w) => w.file),
    linkFile: links.file,
    generateMs: Math.round(performance.now() - started),
    bytes: weeks.reduce((n, w) => n + w.bytes, links.bytes),
  };
  writeFileSync(path.join(dir, MANIFEST), JSON.stringify(ds, null, 2));
  return ds;
}

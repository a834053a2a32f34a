// The project's catalogs: event names with counts, first/last event time and first/last receipt (an
// exact aggregate over the project's events, bounded by the query time limit), and top-level property
// keys with a type inferred from a sample of the most recently received events (bounded by the sample size).

import type { Services } from '../http/services.js';
import { readEvents } from './timeLimit.js';

export const MAX_CATALOG_EVENTS = 10_000;
export const PROPS_SAMPLE_EVENTS = 10_000;
export const MAX_CATALOG_PROPS = 1_000;

export interface CatalogEvent {
  event: string;
  count: number;
  /** The earliest and latest event time (ts): when things happened, as the clients said. */
  first_event_time: string;
  last_event_time: string;
  /** The earliest and latest time of receipt. */
  first_seen: string;
  last_seen: string;
}

export interface EventCatalog {
  items: CatalogEvent[];
  /** True when the project has more than MAX_CATALOG_EVENTS names; the most frequent are listed. */
  truncated: boolean;
}

export async function eventCatalog(services: Services, projectId: number): Promise<EventCatalog> {
  const rows = await readEvents(
    services,
    `SELECT event, count(*) AS n, epoch_ms(min(ts)) AS first_ts_ms, epoch_ms(max(ts)) AS last_ts_ms,
            epoch_ms(min(received_at)) AS first_ms, epoch_ms(max(received_at)) AS last_ms
       FROM events WHERE project_id = $project GROUP BY event ORDER BY n DESC, event LIMIT $limit`,
    { project: projectId, limit: MAX_CATALOG_EVENTS + 1 },
  );
  const iso = (ms: unknown) => new Date(Number(ms)).toISOString();
  const items = rows.slice(0, MAX_CATALOG_EVENTS).map((r) => ({
    event: String(r.event),
    count: Number(r.n),
    first_event_time: iso(r.first_ts_ms),
    last_event_time: iso(r.last_ts_ms),
    first_seen: iso(r.first_ms),
    last_seen: iso(r.last_ms),
  }));
  items.sort((a, b) => (a.event < b.event ? -1 : a.event > b.event ? 1 : 0));
  return { items, truncated: rows.length > MAX_CATALOG_EVENTS };
}

export type PropertyType = 'string' | 'number' | 'boolean' | 'datetime' | 'object' | 'array' | 'mixed';

export interface PropertyCatalog {
  event: string | null;
  /** How many events (the most recently received ones carrying properties) the types were read from. */
  sampled_events: number;
  items: Array<{ key: string; type: PropertyType; seen: number }>;
  truncated: boolean;
}

/** ISO 8601 dates and date-times, as a person would call a string a date. */
const DATETIME_RE = '\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?([Zz]|[+-]\\d{2}(:?\\d{2})?)?)?';

/** Each sampled value's kind, from json_each's type; JSON null has no kind. */
const KIND_SQL = `CASE j.type
    WHEN 'VARCHAR' THEN CASE WHEN regexp_full_match(j.value ->> '$', $datetime) THEN 'datetime' ELSE 'string' END
    WHEN 'BIGINT' THEN 'number' WHEN 'UBIGINT' THEN 'number' WHEN 'HUGEINT' THEN 'number' WHEN 'DOUBLE' THEN 'number'
    WHEN 'BOOLEAN' THEN 'boolean' WHEN 'OBJECT' THEN 'object' WHEN 'ARRAY' THEN 'array' END`;

export async function propertyCatalog(services: Services, projectId: number, event?: string): Promise<PropertyCatalog> {
  const byEvent = event === undefined ? '' : 'AND event = $event';
  const rows = await readEvents(
    services,
    `WITH sample AS MATERIALIZED (
        SELECT props FROM events WHERE project_id = $project AND props IS NOT NULL ${byEvent} ORDER BY received_at DESC LIMIT $sample),
      kinds AS (SELECT j.key AS key, ${KIND_SQL} AS kind FROM sample, json_each(sample.props) j)
     SELECT NULL AS key, NULL AS kind, count(*) AS n FROM sample
     UNION ALL
     SELECT key, kind, count(*) AS n FROM kinds GROUP BY key, kind`,
    { project: projectId, sample: PROPS_SAMPLE_EVENTS, datetime: DATETIME_RE, ...(event === undefined ? {} : { event }) },
  );
  const sampled = Number(rows.find((r) => r.key === null)?.n ?? 0);
  const keys = new Map<string, { kinds: Set<string>; seen: number }>();
  for (const r of rows) {
    if (r.key === null) continue;
    const entry = keys.get(String(r.key)) ?? { kinds: new Set<string>(), seen: 0 };
    entry.seen += Number(r.n);
    if (r.kind !== null) entry.kinds.add(String(r.kind));
    keys.set(String(r.key), entry);
  }
  const typed = [...keys].flatMap(([key, { kinds, seen }]) => {
    const type = inferType(kinds);
    return type ? [{ key, type, seen }] : [];
  });
  typed.sort((a, b) => b.seen - a.seen || (a.key < b.key ? -1 : 1));
  const items = typed.slice(0, MAX_CATALOG_PROPS).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { event: event ?? null, sampled_events: sampled, items, truncated: typed.length > MAX_CATALOG_PROPS };
}

/**
 * One type for a key from the kinds of its sampled values. Strings of which only some look like
 * dates are strings; a key seen only with null values has no type and is not listed.
 */
export function inferType(kinds: ReadonlySet<string>): PropertyType | undefined {
  if (kinds.size === 0) return undefined;
  if (kinds.size === 1) return [...kinds][0] as PropertyType;
  if (kinds.size === 2 && kinds.has('string') && kinds.has('datetime')) return 'string';
  return 'mixed';
}

// The project's catalogs: event names with counts, first/last event time and first/last receipt (an
// exact aggregate over the project's events, bounded by the query time limit), and top-level property
// keys with a type inferred from a sample of the most recently received events (bounded by the sample size).

import type { Services } from '../http/services.js';
import { readEvents } from './timeLimit.js';
import { statementsOf } from '../engine/statements.js';

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
  const rows = await readEvents(services, statementsOf(services.events).events.eventCatalogSql(projectId, MAX_CATALOG_EVENTS + 1));
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

export async function propertyCatalog(services: Services, projectId: number, event?: string): Promise<PropertyCatalog> {
  const rows = await readEvents(services, statementsOf(services.events).events.propertyKindsSql(projectId, PROPS_SAMPLE_EVENTS, event));
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

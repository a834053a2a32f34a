// The query of GET /projects/{id}/events after schema validation: the semantic checks (alias
// agreement, range order, the doctor view's rules) and the canonical scope a cursor is bound to.
// Building SQL from it is left to eventsWhere.ts.

import { parseFilters } from '../engine/filters.js';
import type { Filter } from '../engine/filters.js';
import { ValidationError } from '../ground/errors.js';

export const EVENT_SOURCES = ['browser', 'server', 'import', 'system', 'unknown'] as const;
export type EventSource = (typeof EVENT_SOURCES)[number];
/** received: by time of receipt (the default; only grows, so pages never shift); event_time: by the event's own time. */
export const EVENT_ORDERS = ['received', 'event_time'] as const;
export type EventOrder = (typeof EVENT_ORDERS)[number];

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
export const DOCTOR_MAX_DAYS = 31;
const DAY_MS = 86_400_000;

export interface EventFilters {
  /** Any of these names; sorted and without repeats. */
  events?: string[];
  userId?: string;
  anonymousId?: string;
  actorId?: string;
  sdkName?: string;
  release?: string;
  invalidOnly: boolean;
  source?: EventSource;
  /** Half-open [from, to) on the time of receipt. */
  from?: Date;
  to?: Date;
  /** Property and column filters as the queries take them (`props.$country` eq `DE`); absent when none. */
  props?: Filter[];
}

export interface EventsQuery {
  view: 'events' | 'doctor';
  order: EventOrder;
  filters: EventFilters;
  limit: number;
  cursor?: string;
}

/** Filters that identify people or releases: doctor records (rejected attempts) carry none of them. */
const NOT_DOCTOR_FILTERS = ['user_id', 'anonymous_id', 'anon_id', 'actor_id', 'release', 'filters'] as const;

/** `query` is req.valid.query: types and formats are already checked by the OpenAPI schema. */
export function parseEventsQuery(query: Record<string, unknown>): EventsQuery {
  const view = query.view === 'doctor' ? 'doctor' : 'events';
  const str = (name: string) => (query[name] === undefined ? undefined : String(query[name]));
  checkAnonymousAlias(str('anonymous_id'), str('anon_id'));
  const names = query.event === undefined ? undefined : [...new Set(query.event as string[])].sort();
  const filters: EventFilters = {
    events: names,
    userId: str('user_id'),
    anonymousId: str('anonymous_id') ?? str('anon_id'),
    actorId: str('actor_id'),
    sdkName: str('sdk_name'),
    release: str('release'),
    invalidOnly: query.invalid_only === true,
    source: str('source') as EventSource | undefined,
    from: query.from === undefined ? undefined : new Date(String(query.from)),
    to: query.to === undefined ? undefined : new Date(String(query.to)),
  };
  const props = parseFilters(str('filters'));
  if (props.length > 0) filters.props = props;
  checkRange(filters.from, filters.to);
  if (view === 'doctor') checkDoctor(query, filters);
  const order: EventOrder = query.order === 'event_time' ? 'event_time' : 'received';
  return { view, order, filters, limit: query.limit === undefined ? DEFAULT_LIMIT : Number(query.limit), cursor: str('cursor') };
}

function checkAnonymousAlias(anonymousId: string | undefined, anonId: string | undefined): void {
  if (anonymousId !== undefined && anonId !== undefined && anonymousId !== anonId) {
    throw new ValidationError(`anon_id is an alias of anonymous_id and must not differ from it (got ${JSON.stringify(anonId)} and ${JSON.stringify(anonymousId)})`, 'anon_id');
  }
}

function checkRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && to.getTime() <= from.getTime()) {
    throw new ValidationError(`to (${to.toISOString()}) must be later than from (${from.toISOString()})`, 'to');
  }
}

function checkDoctor(query: Record<string, unknown>, filters: EventFilters): void {
  for (const name of ['from', 'to'] as const) {
    if (!filters[name]) throw new ValidationError(`${name} is required with view=doctor`, name);
  }
  const latest = new Date(filters.from!.getTime() + DOCTOR_MAX_DAYS * DAY_MS);
  if (filters.to! > latest) {
    throw new ValidationError(`view=doctor covers at most ${DOCTOR_MAX_DAYS} days: to must be at most ${latest.toISOString()}, got ${filters.to!.toISOString()}`, 'to');
  }
  if ((filters.events?.length ?? 0) > 1) {
    throw new ValidationError(`view=doctor takes at most one event value, got ${filters.events!.length}`, 'event');
  }
  for (const name of NOT_DOCTOR_FILTERS) {
    if (query[name] !== undefined) throw new ValidationError(`${name} is not a filter of view=doctor`, name);
  }
  if (query.order === 'event_time') throw new ValidationError('view=doctor is ordered by time of receipt only: order=event_time is not accepted', 'order');
}

/**
 * What a cursor is bound to: the project, the view, the order and every effective filter (not the
 * page size). The default order is left out, so cursors signed before `order` existed stay valid.
 */
export function cursorScope(projectId: number, q: EventsQuery): Record<string, unknown> {
  const f = q.filters;
  return {
    project: projectId,
    view: q.view,
    order: q.order === 'received' ? undefined : q.order,
    event: f.events,
    user_id: f.userId,
    anonymous_id: f.anonymousId,
    actor_id: f.actorId,
    sdk_name: f.sdkName,
    release: f.release,
    invalid_only: f.invalidOnly,
    source: f.source,
    from: f.from?.toISOString(),
    to: f.to?.toISOString(),
    filters: f.props,
  };
}

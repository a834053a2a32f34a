// PostHog's event export as pp reads it: the rows its batch exports write (JSON lines, or CSV with
// the same columns: uuid, event, distinct_id, properties as JSON text, timestamp, created_at,
// elements_chain, person_id, person_properties, set, set_once, team_id), and the events table's CSV
// download, whose `properties.<key>` columns are gathered back into properties. Each row is mapped
// as PostHog's capture maps a live event (server/ingest/posthog.ts), so an import and a switched
// client store the same.

import { mapPosthogEvent } from '../ingest/posthog.js';
import { idOf, isObject, objectOf, timeOf, type ImportRecord, type Json } from './importRecord.js';

const PROPERTY_COLUMN = 'properties.';

/** A CSV row of PostHog's as the object its JSON lines hold. */
export function posthogCsvRow(header: readonly string[], fields: readonly string[]): Json {
  const row: Json = {};
  let props: Json | undefined;
  header.forEach((name, i) => {
    const value = fields[i];
    if (value === undefined || value === '') return;
    if (name.startsWith(PROPERTY_COLUMN)) (props ??= {})[name.slice(PROPERTY_COLUMN.length)] = value;
    else row[name] = value;
  });
  if (props) row.properties = { ...(objectOf(row.properties) ?? {}), ...props };
  return row;
}

export function posthogRecord(row: unknown): ImportRecord {
  if (!isObject(row)) return { kind: 'refuse', reason: 'a row must be a JSON object' };
  const properties = objectOf(row.properties) ?? {};
  const set = objectOf(row.set) ?? objectOf(row.$set);
  const setOnce = objectOf(row.set_once) ?? objectOf(row.$set_once);
  if (set) properties.$set = set;
  if (setOnce) properties.$set_once = setOnce;
  const stamp = row.timestamp ?? row.created_at ?? row._inserted_at;
  const timestamp = timeOf(stamp);
  if (stamp !== undefined && stamp !== null && stamp !== '' && !timestamp) return { kind: 'refuse', reason: 'timestamp is not a time' };
  const mapped = mapPosthogEvent({ ...row, properties, ...(timestamp ? { timestamp } : {}) });
  switch (mapped.kind) {
    case 'refuse':
      return { kind: 'refuse', reason: mapped.refusal.message };
    case 'skip':
      return mapped;
    case 'identify':
      if (!mapped.anonymousId) return { kind: 'skip' };
      return { kind: 'link', from: mapped.anonymousId, to: mapped.userId, traits: { userId: mapped.userId, set: mapped.set, setOnce: mapped.setOnce } };
    case 'alias':
      return { kind: 'link', from: mapped.previousId, to: mapped.userId };
    case 'event': {
      const ev = mapped.event;
      if (!ev.ts) return { kind: 'refuse', reason: 'timestamp is required' };
      const anonymous = idOf(ev.anonymous_id);
      const user = idOf(ev.user_id);
      return {
        kind: 'event',
        event: ev,
        seed: () => `posthog\n${JSON.stringify([ev.event, ev.ts, anonymous ?? null, user ?? null, ev.props ?? null])}`,
        ...(mapped.traits ? { traits: mapped.traits } : {}),
        ...(anonymous && user && anonymous !== user ? { link: { from: anonymous, to: user } } : {}),
      };
    }
  }
}

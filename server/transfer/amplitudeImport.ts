// Amplitude's export (a zip of gzipped JSON-lines files, one event per line) as pp reads it:
// event_type is the event, user_id the user and device_id the anonymous id (the two linked when an
// event carries both), event_time the time (UTC), event_properties the properties, with the
// context Amplitude keeps in columns of its own added under their names, user_properties the
// user's traits, and uuid (else insert_id) what makes importing again idempotent.

import { idOf, isObject, objectOf, timeOf, type ImportRecord, type Json } from './importRecord.js';

/** Amplitude's names for what pp names otherwise. */
const RENAMED: Record<string, string> = { '[Amplitude] Page Viewed': 'pp.page_view' };

/** Context Amplitude keeps in columns, carried into props under the same names. */
export const AMPLITUDE_CONTEXT = [
  'platform',
  'os_name',
  'os_version',
  'device_brand',
  'device_manufacturer',
  'device_model',
  'device_family',
  'device_type',
  'country',
  'region',
  'city',
  'dma',
  'language',
  'version_name',
  'library',
  'carrier',
] as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function amplitudeRecord(row: unknown): ImportRecord {
  if (!isObject(row)) return { kind: 'refuse', reason: 'a line must be a JSON object' };
  const name = typeof row.event_type === 'string' && row.event_type !== '' ? row.event_type : undefined;
  if (!name) return { kind: 'refuse', reason: 'event_type is required' };
  const user = idOf(row.user_id);
  const device = idOf(row.device_id);
  if (!user && !device) return { kind: 'refuse', reason: 'user_id or device_id is required' };
  const stamp = row.event_time ?? row.client_event_time ?? row.server_upload_time;
  if (stamp === undefined || stamp === null || stamp === '') return { kind: 'refuse', reason: 'event_time is required' };
  const ts = timeOf(stamp);
  if (!ts) return { kind: 'refuse', reason: 'event_time is not a time' };

  const props: Json = { ...(objectOf(row.event_properties) ?? {}) };
  for (const key of AMPLITUDE_CONTEXT) {
    const v = row[key];
    if (v !== undefined && v !== null && v !== '' && !(key in props)) props[key] = v;
  }
  if (row.revenue !== undefined && row.revenue !== null && props.revenue === undefined) props.revenue = row.revenue;
  const pageUrl = props['[Amplitude] Page URL'];
  const session = typeof row.session_id === 'number' ? (row.session_id > 0 ? String(row.session_id) : undefined) : idOf(row.session_id);
  const uuid = typeof row.uuid === 'string' && UUID.test(row.uuid) ? row.uuid : undefined;
  const insertId = idOf(row.insert_id) ?? idOf(row.$insert_id);
  const traits = objectOf(row.user_properties);
  return {
    kind: 'event',
    event: {
      event: RENAMED[name] ?? name,
      ...(uuid ? { uuid } : {}),
      ts,
      anonymous_id: device ?? null,
      user_id: user ?? null,
      session_id: session ?? null,
      url: typeof pageUrl === 'string' && pageUrl !== '' ? pageUrl : null,
      props: Object.keys(props).length > 0 ? props : null,
    },
    seed: () => (insertId ? `amplitude-insert-id\n${insertId}` : `amplitude\n${JSON.stringify([name, ts, user ?? null, device ?? null, props])}`),
    ...(user && traits && Object.keys(traits).length > 0 ? { traits: { userId: user, set: traits } } : {}),
    ...(user && device && user !== device ? { link: { from: device, to: user } } : {}),
  };
}

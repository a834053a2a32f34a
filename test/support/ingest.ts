// Ingestion helpers for tests: keys and release tokens issued through the keys domain functions,
// events sent through the real /v1/track, and reads of what the event store holds.

import type { TestServer, HttpResult } from './testServer.js';
import type { Project } from '../../server/accounts/projects.js';
import { importLegacyKeys, issueIngestKey, type IngestScope } from '../../server/keys/ingestKeys.js';
import { issueReleaseToken } from '../../server/keys/releaseTokens.js';
import { newValue } from '../../server/keys/keyValues.js';

export interface TestKey {
  id: number;
  value: string;
  prefix: string;
}

export interface KeyOptions {
  type?: 'browser' | 'server';
  name?: string;
  domains?: string[];
  expiresAt?: Date;
  scopes?: IngestScope[];
}

const DAY_MS = 86_400_000;

/** A server key by default; a browser token gets example.com and 30 days unless told otherwise. */
export function createIngestKey(server: TestServer, project: Pick<Project, 'id'>, options: KeyOptions = {}): TestKey {
  const services = server.running.services;
  const type = options.type ?? 'server';
  const browser = type === 'browser';
  const expires = options.expiresAt ?? (browser ? new Date(services.clock.now().getTime() + 30 * DAY_MS) : undefined);
  const issued = issueIngestKey(
    services,
    project.id,
    { type, name: options.name ?? `${type} key`, domains: options.domains ?? (browser ? ['example.com'] : undefined), expires_at: expires?.toISOString(), scopes: options.scopes },
    null,
  );
  return { id: issued.key.id, value: issued.value, prefix: issued.key.public_id };
}

/** A pp_wk_ key as an upgraded installation would have it (issued before the linking split). */
export function createLegacyKey(server: TestServer, project: Pick<Project, 'id'>, options: { domains?: string[] } = {}): TestKey {
  const v = newValue('legacy');
  const result = importLegacyKeys(server.running.services, project.id, [v.value], { domains: options.domains });
  return { id: result.imported[0]!.id, value: v.value, prefix: v.publicId };
}

export function createReleaseToken(server: TestServer, project: Pick<Project, 'id'>): TestKey {
  const issued = issueReleaseToken(server.running.services, project.id, { name: 'ci' }, null);
  return { id: issued.token.id, value: issued.value, prefix: issued.token.public_id };
}

/** Sends events through POST /v1/track with a Bearer key and returns the answer. */
export function ingestEvents(server: TestServer, key: string | TestKey, events: unknown[], options: { headers?: Record<string, string> } = {}): Promise<HttpResult> {
  return server.request('POST', '/v1/track', { token: typeof key === 'string' ? key : key.value, body: { events }, headers: options.headers });
}

/** Rows of a DuckDB query with counts as numbers; select other non-JSON types as text. */
export async function readTable(server: TestServer, sql: string, params: Array<string | number> = []): Promise<Array<Record<string, any>>> {
  const rows = await server.running.services.events.read(sql, params);
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v])));
}

/** The stored events of a project, oldest uuid first, with the columns tests look at. */
export function storedEvents(server: TestServer, projectId: number): Promise<Array<Record<string, any>>> {
  return readTable(
    server,
    `SELECT uuid::VARCHAR AS uuid, event, strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ') AS ts, strftime(received_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS received_at,
            distinct_id, anonymous_id, user_id, session_id, source, sdk_name, sdk_version, key_id, release, url, path, referrer,
            props::VARCHAR AS props, revenue, elements::VARCHAR AS elements, invalid, to_json(invalid_reasons)::VARCHAR AS invalid_reasons
       FROM events WHERE project_id = $1 ORDER BY ts, uuid`,
    [projectId],
  );
}

export async function countRows(server: TestServer, table: string, projectId?: number): Promise<number> {
  const rows = await server.running.services.events.read(`SELECT count(*) AS n FROM ${table}${projectId === undefined ? '' : ' WHERE project_id = $1'}`, projectId === undefined ? [] : [projectId]);
  return Number(rows[0]!.n);
}

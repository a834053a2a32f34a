// Helpers of the import and export tests: upload a file through the API, wait for a job, read a
// project's events the way an export writes them.

import type { TestServer } from '../support/testServer.js';
import { eventually } from '../support/eventually.js';
import { readTable } from '../support/ingest.js';

export const importsPath = (projectId: number) => `/api/v1/projects/${projectId}/imports`;
export const exportsPath = (projectId: number) => `/api/v1/projects/${projectId}/exports`;

/** Uploads `body` as an import of `format`; answers the 202's job. */
export async function upload(server: TestServer, token: string, projectId: number, body: Buffer | string, format: string, extra: Record<string, string | string[]> = {}): Promise<any> {
  const q = new URLSearchParams({ format });
  for (const [k, v] of Object.entries(extra)) for (const x of [v].flat()) q.append(k, x);
  const res = await server.request('POST', `${importsPath(projectId)}?${q}`, { token, raw: Buffer.isBuffer(body) ? body : Buffer.from(body), headers: { 'content-type': 'application/octet-stream' } });
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${res.text}`);
  return res.body;
}

const ended = (job: any) => ['succeeded', 'failed', 'cancelled'].includes(job.state);

/** Polls an import or export until it ended. */
export function jobEnded(server: TestServer, token: string, path: string, timeoutMs = 60_000): Promise<any> {
  return eventually(`${path} to end`, async () => (await server.request('GET', path, { token })).body, ended, timeoutMs);
}

/** The project's events, every exported field, in stored order. */
export function eventsOf(server: TestServer, projectId: number): Promise<Array<Record<string, any>>> {
  return readTable(
    server,
    `SELECT uuid::VARCHAR AS uuid, event, strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ') AS ts, distinct_id, anonymous_id, user_id, session_id, source,
            url, path, referrer, props::VARCHAR AS props, revenue, elements::VARCHAR AS elements, invalid
       FROM events WHERE project_id = $1 ORDER BY rowid`,
    [projectId],
  );
}

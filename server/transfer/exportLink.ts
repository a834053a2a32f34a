// The download link of a finished export: signed with a key derived from the server secret and
// valid for EXPORT_LINK_TTL_MS, so it can be handed to a browser or curl without a token, and is
// useless once it expires or for any other export.

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../http/services.js';

export const EXPORT_LINK_TTL_MS = 60 * 60 * 1000;

function signature(services: Services, projectId: number, jobId: number, expires: number): string {
  const key = createHmac('sha256', services.secret).update('pp export download links').digest();
  return createHmac('sha256', key).update(`${projectId}.${jobId}.${expires}`).digest('base64url');
}

export function downloadLink(services: Services, projectId: number, jobId: number): { url: string; expires_at: string } {
  const expires = Math.floor((services.clock.now().getTime() + EXPORT_LINK_TTL_MS) / 1000);
  const query = `expires=${expires}&signature=${signature(services, projectId, jobId, expires)}`;
  return { url: `/api/v1/projects/${projectId}/exports/${jobId}/download?${query}`, expires_at: new Date(expires * 1000).toISOString() };
}

/** Why the link does not open the export, or undefined when it does. */
export function linkProblem(services: Services, projectId: number, jobId: number, expires: number, given: string): string | undefined {
  const expected = Buffer.from(signature(services, projectId, jobId, expires));
  const got = Buffer.from(given);
  if (got.length !== expected.length || !timingSafeEqual(got, expected)) return 'the download link is not valid';
  if (expires * 1000 <= services.clock.now().getTime()) return 'the download link has expired: ask for the export again to get a fresh one';
  return undefined;
}

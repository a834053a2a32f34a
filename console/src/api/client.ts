// The one API client: typed from the served OpenAPI document (schema.d.ts), the access token held
// in memory only, and one refresh (through the pp_rt cookie) on a 401 before the request is retried.
// When that refresh fails too, the session listener sends the user back to sign-in.

import createClient from 'openapi-fetch';
import type { paths, components } from './schema';

export type Schemas = components['schemas'];

/** An API answer other than success, with the server's code, message and details. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

let accessToken: string | undefined;
let refreshing: Promise<boolean> | undefined;
let signedOutListener: (() => void) | undefined;

export function setAccessToken(token: string | undefined): void {
  accessToken = token;
}

export function onSignedOut(listener: () => void): void {
  signedOutListener = listener;
}

/** Operations the cookie or a credential in the body authenticates: a 401 there is the answer itself. */
function isAuthOperation(url: string): boolean {
  return new URL(url, location.origin).pathname.startsWith('/api/v1/auth/');
}

function withToken(request: Request): Request {
  if (accessToken) request.headers.set('Authorization', `Bearer ${accessToken}`);
  return request;
}

/**
 * Serialized across tabs with a Web Lock: two tabs rotating the same refresh cookie at the same
 * moment would look like a stolen token and end every session.
 */
export function withRefreshLock<T>(work: () => Promise<T>): Promise<T> {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  return locks ? (locks.request('pp-refresh', work) as Promise<T>) : work();
}

/** One refresh at a time: concurrent 401s wait for the same rotation (a second would be reuse). */
export function refreshAccessToken(orgId?: number): Promise<boolean> {
  if (refreshing && orgId === undefined) return refreshing;
  const attempt = withRefreshLock(async () => {
    const response = await fetch('/api/v1/auth/refresh', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(orgId === undefined ? {} : { org_id: orgId }),
    }).catch(() => undefined);
    if (!response?.ok) return false;
    const body = (await response.json()) as { access_token: string };
    accessToken = body.access_token;
    return true;
  });
  if (orgId === undefined) {
    refreshing = attempt;
    void attempt.finally(() => (refreshing = undefined));
  }
  return attempt;
}

async function sessionFetch(request: Request): Promise<Response> {
  const retry = request.clone();
  const sentWith = accessToken;
  const first = await fetch(withToken(request));
  if (first.status !== 401 || isAuthOperation(request.url)) return first;
  // A request that left before another one's refresh finished needs only the new token, not a
  // second rotation.
  const renewed = accessToken !== undefined && accessToken !== sentWith;
  if (renewed || (await refreshAccessToken())) return fetch(withToken(retry));
  accessToken = undefined;
  signedOutListener?.();
  return first;
}

/** fetch with the session's token and its refresh-once rule, for what the typed client cannot read (streams). */
export function apiFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return sessionFetch(new Request(url, { credentials: 'same-origin', ...init }));
}

export const api = createClient<paths>({ baseUrl: '', fetch: sessionFetch, credentials: 'same-origin' });

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer, or an ApiError carrying the server's own message. */
export async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, 'network', 'The server could not be reached. Check the connection and try again.');
  }
  if (answer.response.ok) return answer.data as T;
  throw toApiError(answer.response.status, answer.error);
}

export function toApiError(status: number, body: unknown): ApiError {
  const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
  if (error?.code) return new ApiError(status, error.code, error.message ?? error.code, error.details ?? {});
  return new ApiError(status, 'http_' + status, `The server answered ${status}.`);
}

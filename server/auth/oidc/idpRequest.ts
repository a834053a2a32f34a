// Requests to an organization's identity provider: Node's fetch with a time limit, redirects refused
// (so nothing is contacted but the addresses the configured issuer published) and a cap on the size
// of the answer. Interpreting the answer is left to the caller.

import type { Services } from '../../services.js';

const MAX_RESPONSE_BYTES = 512 * 1024;

/** The provider could not be asked or did not answer in a readable way; the message says how. */
export class IdpRequestError extends Error {}

export interface IdpResponse {
  status: number;
  /** The parsed JSON body; undefined for an error answer that is not JSON. */
  body: unknown;
}

export interface IdpRequestInit {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Sent as application/x-www-form-urlencoded. */
  form?: URLSearchParams;
}

export async function idpRequest(services: Services, url: string, init: IdpRequestInit = {}): Promise<IdpResponse> {
  const timeoutMs = Math.max(1, services.config.oidc.http_timeout_ms);
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form?.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') throw new IdpRequestError(`${url} did not answer within ${timeoutMs} ms`);
    throw new IdpRequestError(`${url} could not be reached (${causeOf(err)})`);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new IdpRequestError(`${url} answered with a redirect (${res.status}), which is not followed`);
  }
  const text = await readCapped(res, url, timeoutMs);
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    if (res.status >= 400) return { status: res.status, body: undefined };
    throw new IdpRequestError(`${url} answered ${res.status} without a JSON body`);
  }
}

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err as Error).message;
}

async function readCapped(res: Response, url: string, timeoutMs: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_RESPONSE_BYTES) {
    await res.body?.cancel();
    throw new IdpRequestError(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  }
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch (err) {
      if ((err as Error).name === 'TimeoutError') throw new IdpRequestError(`${url} did not answer within ${timeoutMs} ms`);
      throw new IdpRequestError(`${url} broke off its answer (${causeOf(err)})`);
    }
    if (chunk.done) break;
    size += chunk.value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new IdpRequestError(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

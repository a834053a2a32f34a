// Requests to an organization's identity provider: node's http(s) client with a time limit, only to
// addresses the policy of idpAddress.ts allows (checked on the address actually connected to),
// redirects refused (so nothing is contacted but the addresses the configured issuer published) and
// a cap on the size of the answer. A network failure reads the same whatever its cause, so the
// answer cannot tell an owner which ports are open; the cause goes to the operator's log. Interpreting
// the answer is left to the caller.

import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Services } from '../../http/services.js';
import { checkIdpUrl, IdpAddressError, PRIVATE_REFUSED, publicOnlyLookup } from './idpAddress.js';

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
  const { http_timeout_ms, allow_private_issuers: allowPrivate } = services.config.oidc;
  const timeoutMs = Math.max(1, http_timeout_ms);
  const target = new URL(url);
  try {
    checkIdpUrl(target, allowPrivate);
  } catch (err) {
    if (err instanceof IdpAddressError) throw new IdpRequestError(err.message);
    throw err;
  }
  const body = init.form?.toString();
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  const unreachable = `${url} could not be reached or did not answer within ${timeoutMs} ms`;
  const failed = (err: unknown): IdpRequestError => {
    if (err instanceof IdpAddressError) return new IdpRequestError(`${target.origin} ${PRIVATE_REFUSED}`);
    services.log.warn({ url, cause: causeOf(err) }, 'identity provider request failed');
    return new IdpRequestError(unreachable);
  };
  const signal = AbortSignal.timeout(timeoutMs);
  let res: IncomingMessage;
  try {
    res = await send(target, { method: init.method ?? 'GET', headers, signal, lookup: allowPrivate ? undefined : publicOnlyLookup }, body);
  } catch (err) {
    throw failed(err);
  }
  if (res.statusCode! >= 300 && res.statusCode! < 400) {
    res.destroy();
    throw new IdpRequestError(`${url} answered with a redirect (${res.statusCode}), which is not followed`);
  }
  let text: string;
  try {
    text = await readCapped(res, url);
  } catch (err) {
    if (err instanceof IdpRequestError) throw err;
    throw failed(err);
  }
  const status = res.statusCode!;
  try {
    return { status, body: JSON.parse(text) as unknown };
  } catch {
    if (status >= 400) return { status, body: undefined };
    throw new IdpRequestError(`${url} answered ${status} without a JSON body`);
  }
}

function send(target: URL, options: http.RequestOptions, body: string | undefined): Promise<IncomingMessage> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(target, options, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

function causeOf(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.code ?? e.cause?.code ?? e.message ?? String(err);
}

async function readCapped(res: IncomingMessage, url: string): Promise<string> {
  const tooLarge = () => new IdpRequestError(`${url} answered with more than ${MAX_RESPONSE_BYTES} bytes`);
  if (Number(res.headers['content-length'] ?? '0') > MAX_RESPONSE_BYTES) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      res.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// Checks the `PP-Signature` header of a payment-provider callback: `t=<unix seconds>,v1=<hex>`, where
// each v1 is HMAC-SHA256(secret, "<t>.<raw body>"). Several v1 entries may come while the provider
// rotates its secret; one match is enough. What the signed body says is payments.ts's business.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from '../ground/errors.js';

export const SIGNATURE_HEADER = 'PP-Signature';

const TIMESTAMP = /^\d{1,12}$/;
const HEX_MAC = /^[0-9a-f]{64}$/i;

export interface SignatureCheck {
  secret: string;
  toleranceSeconds: number;
  now: Date;
}

interface ParsedHeader {
  timestamp: number;
  macs: Buffer[];
}

/** The one answer to a missing, malformed or wrong signature, so a caller learns nothing about which. */
function badSignature(): UnauthorizedError {
  return new UnauthorizedError(`the ${SIGNATURE_HEADER} signature is missing or does not match the request body`);
}

/** `t` once, one or more well-formed `v1`; other keys (future schemes) are skipped. */
export function parseSignatureHeader(header: string | undefined): ParsedHeader | undefined {
  if (!header) return undefined;
  let timestamp: number | undefined;
  const macs: Buffer[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) return undefined;
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (name === 't') {
      if (timestamp !== undefined || !TIMESTAMP.test(value)) return undefined;
      timestamp = Number(value);
    } else if (name === 'v1') {
      if (!HEX_MAC.test(value)) return undefined;
      macs.push(Buffer.from(value, 'hex'));
    }
  }
  return timestamp === undefined || macs.length === 0 ? undefined : { timestamp, macs };
}

export function signPayload(secret: string, timestamp: number, body: Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/**
 * Throws 401 `unauthorized` unless one v1 entry is the MAC of this exact body and the signed time is
 * within the tolerance of `now`. The time is only judged once the signature holds, so a forger is
 * never told more than "signature".
 */
export function verifyProviderSignature(header: string | undefined, body: Buffer, check: SignatureCheck): void {
  const parsed = parseSignatureHeader(header);
  if (!parsed) throw badSignature();
  const expected = signPayload(check.secret, parsed.timestamp, body);
  // Every entry is compared, so the time taken does not say which one matched.
  let matched = false;
  for (const mac of parsed.macs) matched = timingSafeEqual(mac, expected) || matched;
  if (!matched) throw badSignature();
  const skewSeconds = Math.abs(check.now.getTime() / 1000 - parsed.timestamp);
  if (skewSeconds > check.toleranceSeconds) {
    throw new UnauthorizedError(`the ${SIGNATURE_HEADER} timestamp is outside the allowed window of ${check.toleranceSeconds} seconds`);
  }
}

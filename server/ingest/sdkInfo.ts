// Which client sent a request: `name/version` from the X-PP-Tracker header, or from the body
// field `tracker` for beacons that cannot carry headers (and for sdk/node).

import type { Request } from 'express';
import { ValidationError } from '../ground/errors.js';

export interface SdkInfo {
  name: string;
  version: string;
}

export const TRACKER_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}/[A-Za-z0-9][A-Za-z0-9.+_-]{0,63}$';
const TRACKER = new RegExp(TRACKER_PATTERN);

export function parseTracker(value: unknown): SdkInfo | undefined {
  if (typeof value !== 'string' || !TRACKER.test(value)) return undefined;
  const slash = value.indexOf('/');
  return { name: value.slice(0, slash), version: value.slice(slash + 1) };
}

/** The header wins over the body field; a malformed header is refused rather than guessed at. */
export function sdkOf(req: Request): SdkInfo | null {
  const header = req.get('x-pp-tracker');
  if (header !== undefined) {
    const parsed = parseTracker(header);
    if (!parsed) throw new ValidationError('X-PP-Tracker must look like name/version, e.g. pp-browser/0.6.5', 'X-PP-Tracker');
    return parsed;
  }
  const body = req.body as { tracker?: unknown } | undefined;
  return parseTracker(body?.tracker) ?? null;
}

/** The same, never throwing: for records written before the request was validated. */
export function sdkHint(req: Request): SdkInfo | null {
  const body = req.body as { tracker?: unknown } | undefined;
  return parseTracker(req.get('x-pp-tracker')) ?? (body && typeof body === 'object' ? parseTracker(body.tracker) : undefined) ?? null;
}

// The optional registration fields that only trial-first signup reads. They come from the browser
// unchecked by the schema, so each is cleaned here and anything malformed is silently dropped: a
// broken fingerprint or UTM map must never cost a person their signup.

import { isTimeZone } from '../../accounts/projects.js';

/** Limits of the HTTP contract: UTM values are cut at 200 characters, at most 10 keys are kept. */
export const UTM_VALUE_MAX = 200;
export const UTM_KEYS_MAX = 10;
const DEVICE_FP_MAX = 200;
const DEVICE_FP_SHAPE = /^[A-Za-z0-9._:+/=-]+$/;

/** A fingerprint hash as the browser computed it, or undefined when it is not a short token-like string. */
export function cleanDeviceFp(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > DEVICE_FP_MAX) return undefined;
  return DEVICE_FP_SHAPE.test(value) ? value : undefined;
}

/**
 * The first 10 entries of a string-to-string map, values cut at 200 characters. Any other shape (an
 * array, null, a nested object, a number among the values) drops the whole map.
 */
export function cleanUtm(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 || entries.some(([key, v]) => typeof v !== 'string' || key.length > UTM_VALUE_MAX)) return undefined;
  return Object.fromEntries(entries.slice(0, UTM_KEYS_MAX).map(([key, v]) => [key, firstChars(v as string, UTM_VALUE_MAX)]));
}

/** Cut by characters (code points), so an emoji is never split in half. */
function firstChars(s: string, n: number): string {
  return s.length <= n ? s : Array.from(s).slice(0, n).join('');
}

/** A valid IANA zone or undefined; it only decides how the deadline reads in the email. */
export function cleanTimeZone(value: unknown): string | undefined {
  return typeof value === 'string' && isTimeZone(value) ? value : undefined;
}

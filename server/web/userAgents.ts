// Browser, browser version, operating system and device type of a user agent (bowser), with the
// answers for recent user agents kept in a small bounded LRU: a site's visitors send a few hundred
// distinct user agents, and parsing one costs far more than a map lookup.

import Bowser from 'bowser';

export interface ClientInfo {
  browser: string | null;
  /** The major version (`17`, `120`): minor versions split every table without telling much. */
  browser_version: string | null;
  os: string | null;
  /** desktop, mobile, tablet, tv or bot; null when the user agent does not say. */
  device_type: string | null;
}

/** Bowser's patterns run on the text: a user agent is cut to this length before it is parsed. */
export const USER_AGENT_MAX = 512;
const DEVICE_TYPES = new Set(['desktop', 'mobile', 'tablet', 'tv', 'bot']);
/** Living-room devices bowser reads as tablets or desktops: TV sets, TV boxes and game consoles. */
const TV_MARKS = ['Android TV', 'SmartTV', 'SMART-TV', 'GoogleTV', 'AppleTV', 'Xbox', 'PlayStation', 'Nintendo'];
const NONE: ClientInfo = Object.freeze({ browser: null, browser_version: null, os: null, device_type: null });

/** A least-recently-used map: a Map keeps insertion order, so a hit is re-inserted and the oldest key is first. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }
}

const nonEmpty = (s: string | undefined): string | null => (s && s.trim() !== '' ? s.trim() : null);

function majorOf(version: string | undefined): string | null {
  const v = nonEmpty(version);
  if (!v) return null;
  const dot = v.indexOf('.');
  return dot < 0 ? v : v.slice(0, dot);
}

/** The uncached parse. */
export function parseUserAgent(userAgent: string): ClientInfo {
  const ua = userAgent.slice(0, USER_AGENT_MAX).trim();
  if (ua === '') return NONE;
  const r = Bowser.parse(ua);
  const browser = nonEmpty(r.browser.name);
  const given = r.platform.type && DEVICE_TYPES.has(r.platform.type) ? r.platform.type : null;
  const type = given !== 'bot' && TV_MARKS.some((m) => ua.includes(m)) ? 'tv' : given;
  return {
    browser,
    browser_version: browser ? majorOf(r.browser.version) : null,
    os: nonEmpty(r.os.name),
    device_type: type,
  };
}

const cache = new Lru<string, ClientInfo>(1000);

/** parseUserAgent through the process's LRU of the last 1,000 distinct user agents. */
export function clientOf(userAgent: string | null | undefined): ClientInfo {
  if (!userAgent) return NONE;
  let info = cache.get(userAgent);
  if (info === undefined) {
    info = parseUserAgent(userAgent);
    cache.set(userAgent, info);
  }
  return info;
}

// Fetches the public collection configuration of a key. Anything unexpected resolves to
// the safe fallback: strict privacy and no autocapture, so only page views and manual
// calls are sent.
import type { CollectConfig, Kind } from '../shared/types.js';
import { log } from './util.js';

const KINDS: Kind[] = ['clicks', 'hover_intent', 'sections', 'scroll', 'forms', 'replay', 'diagnostics'];
const TIMEOUT_MS = 10000;

export const FALLBACK: CollectConfig = { privacy_mode: 'strict', collect: [] };

export function keyPrefix(key: string): string | undefined {
  const m = /^pp_bt_([\w-]{8})[\w-]{32}$/.exec(key);
  return m ? m[1] : undefined;
}

export function parseConfig(raw: unknown): CollectConfig {
  if (!raw || typeof raw !== 'object') return FALLBACK;
  const r = raw as Record<string, unknown>;
  const collect = Array.isArray(r.collect) ? KINDS.filter((k) => (r.collect as unknown[]).includes(k)) : [];
  const cfg: CollectConfig = { privacy_mode: r.privacy_mode === 'standard' ? 'standard' : 'strict', collect };
  const rate = r.replay_sample_rate;
  if (typeof rate === 'number' && rate >= 0) cfg.replay_sample_rate = Math.min(1, rate);
  return cfg;
}

export async function fetchConfig(host: string, prefix: string): Promise<CollectConfig> {
  const ctl = typeof AbortController !== 'undefined' ? new AbortController() : undefined;
  const t = setTimeout(() => ctl?.abort(), TIMEOUT_MS);
  try {
    const res = await fetch(`${host}/v1/config/${prefix}`, { credentials: 'omit', mode: 'cors', signal: ctl?.signal });
    if (!res.ok) throw new Error(`status ${res.status}`);
    return parseConfig(await res.json());
  } catch (err) {
    log('configuration unavailable, collecting page views and manual calls only', err);
    return FALLBACK;
  } finally {
    clearTimeout(t);
  }
}

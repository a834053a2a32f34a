// Small helpers of the core: ids, timestamps, URL cleaning and debug logging.

export function uuid(): string {
  const c = typeof crypto !== 'undefined' ? crypto : undefined;
  // randomUUID exists only in secure contexts; getRandomValues also on plain http pages.
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const b = new Uint8Array(16);
  if (c && c.getRandomValues) c.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = (Math.random() * 256) | 0;
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  let h = '';
  for (let i = 0; i < 16; i++) h += (b[i] + 0x100).toString(16).slice(1);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export const isoNow = (): string => new Date().toISOString();

// Picker parameters are one-time secrets: they never leave the page inside an event URL.
const SECRET_PARAMS = ['pp_picker_token', 'pp_picker_nonce'];

export function cleanUrl(href: string): string {
  if (!href) return href;
  try {
    const u = new URL(href);
    let changed = false;
    for (const p of SECRET_PARAMS) {
      if (u.searchParams.has(p)) {
        u.searchParams.delete(p);
        changed = true;
      }
    }
    return changed ? u.href : href;
  } catch {
    return href;
  }
}

export function truncate(s: string, max: number): string {
  return s.length > max ? s.slice(0, max) : s;
}

let debugOn = false;
export function setDebug(on: boolean): void {
  debugOn = on;
}
export function log(...args: unknown[]): void {
  if (debugOn) console.warn('[pp]', ...args);
}

export function on(target: EventTarget, type: string, fn: (e: any) => void, capture = true): void {
  target.addEventListener(type, fn, { capture, passive: true });
}

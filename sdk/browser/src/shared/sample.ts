// Replay sampling decided per session, not per page: every page of a sampled session is
// recorded, so a replay has no holes. FNV-1a of the session id gives a stable draw.
export function sessionSampled(sessionId: string, rate: number | undefined): boolean {
  const r = rate === undefined ? 1 : rate;
  if (r >= 1) return true;
  if (r <= 0) return false;
  let h = 0x811c9dc5;
  for (let i = 0; i < sessionId.length; i++) {
    h ^= sessionId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 0x100000000 < r;
}

// Chart plumbing: data that keeps its identity while its content is the same (a page re-renders
// when a picker's catalog arrives; the chart must not be rebuilt for that), and a mark at the
// moment a chart is on screen (effects run after the browser paints), so the time from a query's
// answer to its chart can be measured in the browser (`npm run bench:console`).
import { useEffect, useRef } from 'preact/hooks';

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The first value of equal content seen, so effects keyed on it run only when the content changes. */
export function useStable<T>(value: T): T {
  const kept = useRef(value);
  if (kept.current !== value && !equal(kept.current, value)) kept.current = value;
  return kept.current;
}

export function useDrawnMark(data: unknown): void {
  const stable = useStable(data);
  useEffect(() => {
    performance.mark('pp:drawn');
  }, [stable]);
}

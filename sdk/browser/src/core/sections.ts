// Section views: a <section> or [data-pp-section] element that stays at least half
// visible (or fills half the viewport) for a second, reported once per page view.
import type { Capture, Feature } from './capture.js';
import { describe, selectorOf } from './elements.js';

const SELECTOR = 'section,[data-pp-section]';
const DWELL_MS = 1000;
const RESCAN_MS = 500;

export function startSections(cap: Capture): Feature | undefined {
  if (typeof IntersectionObserver === 'undefined') return undefined;
  let seen = new WeakSet<Element>();
  const timers = new Map<Element, ReturnType<typeof setTimeout>>();

  const report = (el: Element): void => {
    timers.delete(el);
    if (seen.has(el) || !el.isConnected) return;
    seen.add(el);
    const elements = describe(el, cap.mode);
    if (!elements) return;
    const selector = selectorOf(el, cap.mode);
    const label = cap.mode === 'standard' ? el.getAttribute('data-pp-section') : null;
    const all = Array.from(document.querySelectorAll(SELECTOR));
    cap.emit('pp.section_view', { section: label || selector, selector, index: all.indexOf(el) }, elements);
  };

  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        const vh = e.rootBounds ? e.rootBounds.height : innerHeight;
        const visible = e.isIntersecting && (e.intersectionRatio >= 0.5 || e.intersectionRect.height >= vh / 2);
        const t = timers.get(e.target);
        if (visible && !t && !seen.has(e.target)) {
          timers.set(
            e.target,
            setTimeout(() => report(e.target), DWELL_MS),
          );
        } else if (!visible && t) {
          clearTimeout(t);
          timers.delete(e.target);
        }
      }
    },
    // Fine steps so that sections many viewports tall still report crossing half a screen.
    { threshold: Array.from({ length: 21 }, (_, i) => i / 20) },
  );

  const scan = (): void => {
    document.querySelectorAll(SELECTOR).forEach((el) => io.observe(el));
  };
  let pendingScan: ReturnType<typeof setTimeout> | undefined;
  // Sections rendered later (client-side apps) are picked up by a debounced rescan.
  new MutationObserver(() => {
    if (pendingScan === undefined)
      pendingScan = setTimeout(() => {
        pendingScan = undefined;
        scan();
      }, RESCAN_MS);
  }).observe(document.documentElement, { childList: true, subtree: true });
  scan();

  return {
    pageStart: () => {
      seen = new WeakSet();
      timers.forEach(clearTimeout);
      timers.clear();
      // Re-observing delivers a fresh entry for every section still on screen.
      io.disconnect();
      scan();
    },
  };
}

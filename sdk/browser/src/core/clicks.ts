// Click autocapture: pp.click for every capturable click, pp.rage_click for bursts of
// clicks in one spot, pp.dead_click when a click changes nothing on the page. Each says
// where the click landed: on the page, in the viewport's size, and inside the element.
import type { Props } from '../shared/types.js';
import type { Capture, Feature } from './capture.js';
import { describe, interactiveAncestor, startOf } from './elements.js';
import { on } from './util.js';

const RAGE_COUNT = 3;
const RAGE_WINDOW_MS = 1000;
const RAGE_RADIUS_PX = 30;
const DEAD_WAIT_MS = 2500;
// Clicks whose effect is invisible to the DOM (focus, playback, drawing, new tabs) are
// not judged dead.
const NOT_JUDGED = 'input,select,textarea,label,option,video,audio,canvas,iframe,embed,object,[contenteditable],a[target],a[download]';

interface Point {
  t: number;
  x: number;
  y: number;
}

function looksInteractive(el: Element): boolean {
  if (interactiveAncestor(el)) return true;
  try {
    return getComputedStyle(el).cursor === 'pointer';
  } catch {
    return false;
  }
}

// Percent of the element's box, so that clicks on one element compare across screen sizes.
// A click without a pointer position (keyboard, script) has none to give.
function offsetIn(el: Element, e: MouseEvent): { ox: number; oy: number } | undefined {
  const r = el.getBoundingClientRect();
  if (!e.detail || !r.width || !r.height) return undefined;
  const pct = (at: number, size: number): number => Math.min(100, Math.max(0, Math.round((at / size) * 100)));
  return { ox: pct(e.clientX - r.left, r.width), oy: pct(e.clientY - r.top, r.height) };
}

// A fixed or sticky element does not move with the page, so its page coordinates depend on
// the scroll position at the time of the click.
function inFixed(el: Element): boolean {
  for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) {
    const p = getComputedStyle(e).position;
    if (p === 'fixed' || p === 'sticky') return true;
  }
  return false;
}

function selectionKey(): string {
  const s = document.getSelection();
  return s ? `${s.rangeCount}:${s.isCollapsed}:${s.toString()}` : '';
}

export function startClicks(cap: Capture): Feature {
  let burst: Point[] = [];
  let raged = false;
  let pending: { finish(alive: boolean): void } | undefined;

  const judgeDead = (target: Element, props: Props, elements: ReturnType<typeof describe>): void => {
    pending?.finish(true);
    const selection = selectionKey();
    const active = document.activeElement;
    let alive = false;
    const mark = (): void => {
      alive = true;
    };
    const mo = new MutationObserver(mark);
    mo.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const opts = { capture: true, passive: true };
    addEventListener('scroll', mark, opts);
    document.addEventListener('visibilitychange', mark, opts);
    const timer = setTimeout(() => me.finish(false), DEAD_WAIT_MS);
    const me = {
      finish(force: boolean): void {
        if (pending !== me) return;
        pending = undefined;
        clearTimeout(timer);
        mo.disconnect();
        removeEventListener('scroll', mark, opts);
        document.removeEventListener('visibilitychange', mark, opts);
        const changed = alive || force || selectionKey() !== selection || document.activeElement !== active;
        if (!changed && target.isConnected && elements) cap.emit('pp.dead_click', props, elements);
      },
    };
    pending = me;
  };

  on(document, 'click', (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target) return;
    const elements = describe(target, cap.mode);
    // A click on an excluded element is not seen at all, not even as part of a burst.
    if (!elements) return;
    const x = Math.round(e.pageX);
    const y = Math.round(e.pageY);
    // The offset is within the element reported first, the outer <svg> for a drawn target.
    const where: Props = { x, y, vw: innerWidth, vh: innerHeight, ...offsetIn(startOf(target), e) };
    if (inFixed(target)) where.fixed = true;
    const props = { ...where, interactive: looksInteractive(target) };
    cap.emit('pp.click', props, elements);

    const now = Date.now();
    const last = burst[burst.length - 1];
    const near = last && now - last.t <= RAGE_WINDOW_MS && Math.hypot(x - last.x, y - last.y) <= RAGE_RADIUS_PX;
    if (!near) {
      burst = [];
      raged = false;
    }
    burst.push({ t: now, x, y });
    while (burst.length && now - burst[0].t > RAGE_WINDOW_MS) burst.shift();
    if (!raged && burst.length >= RAGE_COUNT) {
      raged = true;
      cap.emit('pp.rage_click', { ...where, clicks: burst.length }, elements);
    }

    const modified = e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0;
    if (!modified && !target.closest(NOT_JUDGED)) judgeDead(target, props, elements);
  });

  return {
    navigated: () => pending?.finish(true),
    pageEnd: () => pending?.finish(true),
    pageStart: () => {
      burst = [];
      raged = false;
    },
  };
}

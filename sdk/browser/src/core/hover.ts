// Hover intent: a mouse resting on an interactive element (or one marked data-pp-hover)
// for at least HOVER_MS. Reported when the pointer leaves or clicks, with the dwell time.
import type { Capture, Feature } from './capture.js';
import { describe } from './elements.js';
import { on } from './util.js';

const HOVER_MS = 500;
const MAX_PER_PAGE = 50;
const TARGETS = 'a[href],button,summary,select,label,[role=button],[role=link],[role=tab],[role=menuitem],[data-pp-hover]';

export function startHover(cap: Capture): Feature {
  let current: { el: Element; since: number } | undefined;
  let sent = 0;

  const end = (clicked: boolean): void => {
    const c = current;
    current = undefined;
    if (!c || sent >= MAX_PER_PAGE) return;
    const ms = Date.now() - c.since;
    if (ms < HOVER_MS || !c.el.isConnected) return;
    const elements = describe(c.el, cap.mode);
    if (!elements) return;
    sent++;
    cap.emit('pp.hover_intent', { duration_ms: ms, clicked }, elements);
  };

  on(document, 'pointerover', (e: PointerEvent) => {
    if (e.pointerType !== 'mouse' || !(e.target instanceof Element)) return;
    const el = e.target.closest(TARGETS);
    if (el === current?.el) return;
    end(false);
    if (el) current = { el, since: Date.now() };
  });
  on(document, 'pointerout', (e: PointerEvent) => {
    if (!current || e.pointerType !== 'mouse') return;
    const to = e.relatedTarget instanceof Node ? e.relatedTarget : null;
    if (!to || !current.el.contains(to)) end(false);
  });
  on(document, 'click', () => end(true));

  return {
    pageEnd: () => end(false),
    pageStart: () => {
      sent = 0;
    },
  };
}

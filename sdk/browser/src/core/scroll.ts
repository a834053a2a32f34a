// Scroll depth: the furthest point of the page seen during a page view, as a percent of
// the page height at that moment; one pp.scroll_depth when the page view ends.
import type { Capture, Feature } from './capture.js';
import { on } from './util.js';

interface Depth {
  percent: number;
  pixels: number;
  height: number;
}

function measure(): Depth {
  const doc = document.documentElement;
  const body = document.body;
  const height = Math.max(doc.scrollHeight, body ? body.scrollHeight : 0, doc.clientHeight);
  const bottom = Math.round((window.scrollY || doc.scrollTop) + innerHeight);
  const percent = height > 0 ? Math.min(100, Math.max(0, Math.round((bottom / height) * 100))) : 100;
  return { percent, pixels: Math.min(bottom, height), height };
}

export function startScroll(cap: Capture): Feature {
  let best: Depth = measure();
  let scheduled = false;

  const sample = (): void => {
    scheduled = false;
    const d = measure();
    if (d.percent > best.percent || (d.percent === best.percent && d.pixels > best.pixels)) best = d;
  };
  on(window, 'scroll', () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(sample);
  });

  return {
    pageEnd: (url) => {
      sample();
      cap.emit('pp.scroll_depth', { percent: best.percent, pixels: best.pixels, page_height: best.height }, undefined, url);
    },
    pageStart: () => {
      best = measure();
    },
  };
}

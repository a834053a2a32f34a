// Diagnostics module: uncaught errors and unhandled rejections as pp.js_error, and web
// vitals (TTFB, FCP, LCP, CLS, FID, INP approximations) as pp.web_vital, once per page load.
import type { ModuleContext } from '../shared/types.js';
import { register } from './register.js';

const MAX_ERRORS = 20;
const MAX_MESSAGE = 500;
const MAX_STACK = 2000;

type Metric = 'TTFB' | 'FCP' | 'LCP' | 'CLS' | 'FID' | 'INP';

// [good up to, poor above], as published with the Core Web Vitals.
const THRESHOLDS: Record<Metric, [number, number]> = {
  TTFB: [800, 1800],
  FCP: [1800, 3000],
  LCP: [2500, 4000],
  CLS: [0.1, 0.25],
  FID: [100, 300],
  INP: [200, 500],
};

function stripQuery(u: string): string {
  return u.replace(/[?#].*$/, '');
}

function watchErrors(ctx: ModuleContext): void {
  const seen = new Set<string>();
  const report = (props: Record<string, unknown>): void => {
    const sig = `${props.kind}|${props.message}|${props.source}|${props.line}`;
    if (seen.has(sig) || seen.size >= MAX_ERRORS) return;
    seen.add(sig);
    ctx.track('pp.js_error', props);
  };
  addEventListener('error', (e: ErrorEvent) => {
    const err = e.error as { stack?: unknown; name?: unknown } | undefined;
    report({
      kind: 'error',
      name: err && typeof err.name === 'string' ? err.name : undefined,
      message: String(e.message || 'error').slice(0, MAX_MESSAGE),
      source: e.filename ? stripQuery(e.filename) : undefined,
      line: e.lineno || undefined,
      column: e.colno || undefined,
      stack: err && typeof err.stack === 'string' ? err.stack.slice(0, MAX_STACK) : undefined,
    });
  });
  addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => {
    const r = e.reason as { message?: unknown; stack?: unknown; name?: unknown } | undefined;
    const message = r && typeof r.message === 'string' ? r.message : String(r);
    report({
      kind: 'unhandledrejection',
      name: r && typeof r.name === 'string' ? r.name : undefined,
      message: message.slice(0, MAX_MESSAGE),
      stack: r && typeof r.stack === 'string' ? r.stack.slice(0, MAX_STACK) : undefined,
    });
  });
}

function observe(type: string, fn: (entries: PerformanceEntry[]) => void, extra?: Record<string, unknown>): boolean {
  try {
    if (!PerformanceObserver.supportedEntryTypes.includes(type)) return false;
    new PerformanceObserver((list) => fn(list.getEntries())).observe({ type, buffered: true, ...extra } as PerformanceObserverInit);
    return true;
  } catch {
    return false;
  }
}

function watchVitals(ctx: ModuleContext): void {
  const sent = new Set<Metric>();
  const send = (metric: Metric, value: number): void => {
    if (sent.has(metric) || !(value >= 0)) return;
    sent.add(metric);
    const [good, poor] = THRESHOLDS[metric];
    const rating = value <= good ? 'good' : value <= poor ? 'needs-improvement' : 'poor';
    const rounded = metric === 'CLS' ? Math.round(value * 10000) / 10000 : Math.round(value);
    ctx.track('pp.web_vital', { metric, value: rounded, rating });
  };

  const nav = performance.getEntriesByType('navigation')[0] as (PerformanceNavigationTiming & { activationStart?: number }) | undefined;
  if (nav && nav.responseStart > 0) send('TTFB', Math.max(0, nav.responseStart - (nav.activationStart || 0)));

  observe('paint', (entries) => {
    for (const e of entries) if (e.name === 'first-contentful-paint') send('FCP', e.startTime);
  });

  let lcp = -1;
  observe('largest-contentful-paint', (entries) => {
    const last = entries[entries.length - 1];
    if (last) lcp = last.startTime;
  });
  // LCP stops changing at the first input; later candidates are ignored as browsers do.
  const finalLcp = (): void => {
    if (lcp >= 0) send('LCP', lcp);
  };
  for (const type of ['keydown', 'pointerdown']) addEventListener(type, finalLcp, { once: true, capture: true });

  // The first input also counts as an interaction: short ones fall under the event
  // observer's 40 ms threshold, and INP should still exist when every input was quick.
  const interactions = new Map<number, number>();
  observe('first-input', (entries) => {
    const e = entries[0] as (PerformanceEventTiming & { interactionId?: number }) | undefined;
    if (!e) return;
    send('FID', e.processingStart - e.startTime);
    if (e.interactionId) interactions.set(e.interactionId, Math.max(interactions.get(e.interactionId) || 0, e.duration));
  });

  // CLS: the largest session window (shifts under 1 s apart, at most 5 s long).
  let cls = 0;
  let windowValue = 0;
  let windowStart = 0;
  let windowLast = 0;
  const hasCls = observe('layout-shift', (entries) => {
    for (const e of entries as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
      if (e.hadRecentInput) continue;
      if (windowValue && e.startTime - windowLast < 1000 && e.startTime - windowStart < 5000) windowValue += e.value;
      else {
        windowValue = e.value;
        windowStart = e.startTime;
      }
      windowLast = e.startTime;
      cls = Math.max(cls, windowValue);
    }
  });

  // INP approximation: the longest interaction, or about the 98th percentile when there are
  // many (one outlier skipped per 50 interactions, at most 9).
  observe(
    'event',
    (entries) => {
      for (const e of entries as Array<PerformanceEventTiming & { interactionId?: number }>) {
        if (!e.interactionId) continue;
        interactions.set(e.interactionId, Math.max(interactions.get(e.interactionId) || 0, e.duration));
      }
    },
    { durationThreshold: 40 },
  );

  ctx.onHide(() => {
    finalLcp();
    if (hasCls) send('CLS', cls);
    if (interactions.size) {
      const sorted = Array.from(interactions.values()).sort((a, b) => b - a);
      send('INP', sorted[Math.min(Math.floor(sorted.length / 50), 9, sorted.length - 1)]);
    }
  });
}

register('diagnostics', (ctx) => {
  watchErrors(ctx);
  watchVitals(ctx);
});

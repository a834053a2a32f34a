// The interface between the core and its autocapture features: a feature receives a
// Capture to emit through and answers to the page-view lifecycle.
import type { ElementInfo, PrivacyMode, Props } from '../shared/types.js';

export interface Capture {
  mode: PrivacyMode;
  emit(event: string, props?: Props, elements?: ElementInfo[], url?: string): void;
  // Milliseconds since the current page view started.
  sincePageStart(): number;
}

export interface Feature {
  // The page view ends (SPA navigation, page hide): report what belongs to it.
  pageEnd?(url: string): void;
  // A new page view started.
  pageStart?(): void;
  // The URL changed or the page is leaving, so a click that caused it was not dead.
  navigated?(): void;
}

// Types shared by the core and its modules: the collection configuration, the element
// description sent on the wire, and the context the core hands to a module it starts.

export type Kind = 'clicks' | 'hover_intent' | 'sections' | 'scroll' | 'forms' | 'replay' | 'diagnostics';
export type PrivacyMode = 'standard' | 'strict';
export type ModuleName = 'replay' | 'diagnostics' | 'picker';

export interface CollectConfig {
  privacy_mode: PrivacyMode;
  collect: Kind[];
  replay_sample_rate?: number;
}

export type Props = Record<string, unknown>;

export interface ElementInfo {
  tag: string;
  id?: string;
  classes?: string[];
  nth_child: number;
  text?: string;
  attributes?: Record<string, string>;
}

export interface ModuleContext {
  version: string;
  tracker: string;
  host: string;
  key: string;
  config: CollectConfig;
  debug: boolean;
  track(event: string, props?: Props, elements?: ElementInfo[]): void;
  // Queued with the core's retry policy; bearer sends the key as Authorization, otherwise
  // the body carries it as `credential` (only /v1/track and /v1/replay accept that).
  send(path: string, body: Props, bearer: boolean): void;
  anonymousId(): string;
  sessionId(): string;
  // Called before the core flushes when the page is hidden or unloaded.
  onHide(callback: () => void): void;
  // Target-first element chain with the privacy rules applied; null when not capturable.
  describe(el: Element): ElementInfo[] | null;
  selector(el: Element): string;
  pageUrl(): string;
  pickerParams?: { token: string; nonce: string };
}

export interface ModuleRegistration {
  name: ModuleName;
  version: string;
  start(ctx: ModuleContext): void;
}

declare global {
  interface Window {
    __pp_module?: (m: ModuleRegistration) => void;
  }
}

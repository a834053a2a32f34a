// The tracker core: installs `window.pp`, sends page views (load, SPA navigation,
// back/forward cache restores) and manual calls, and starts the autocapture features and
// modules that the key's public configuration enables.
import type { CollectConfig, ElementInfo, ModuleContext, Props } from '../shared/types.js';
import { sessionSampled } from '../shared/sample.js';
import { TRACKER_NAME, TRACKER_VERSION } from '../../version.js';
import type { Capture, Feature } from './capture.js';
import { startClicks } from './clicks.js';
import { FALLBACK, fetchConfig, keyPrefix } from './config.js';
import { describe, selectorOf } from './elements.js';
import { startForms } from './forms.js';
import { startHover } from './hover.js';
import { Identity } from './identity.js';
import { ModuleLoader, moduleBase } from './modules.js';
import { startScroll } from './scroll.js';
import { startSections } from './sections.js';
import { Transport, type WireEvent } from './transport.js';
import { cleanUrl, isoNow, log, on, setDebug, uuid } from './util.js';

interface InitOptions {
  key: string;
  host?: string;
  debug?: boolean;
}

type Navigation = 'load' | 'spa' | 'bfcache';

const TRACKER = `${TRACKER_NAME}/${TRACKER_VERSION}`;
const MAX_EARLY_CALLS = 100;
// Read while the script runs: afterwards document.currentScript is null.
const coreScript = document.currentScript as HTMLScriptElement | null;

let started = false;
let early: Array<() => void> = [];
let host = '';
let key = '';
let debug = false;
let identity: Identity;
let transport: Transport;
let config: CollectConfig | undefined;
let features: Feature[] = [];
let pendingViews: Array<[Navigation, string]> = [];
const hideCallbacks: Array<() => void> = [];
// start: performance.now() when the current page view began; 0, the navigation start, for
// the document's first page view, whenever init ran.
const page = { url: '', referrer: '', start: 0 };

function emit(event: string, props?: Props, elements?: ElementInfo[], url?: string, ts?: string, referrer?: string): void {
  const ev: WireEvent = {
    event,
    uuid: uuid(),
    ts: ts || isoNow(),
    anonymous_id: identity.anonymousId(),
    session_id: identity.sessionId(),
    url: url || cleanUrl(location.href),
  };
  const user = identity.userId();
  if (user) ev.user_id = user;
  if (referrer) ev.referrer = referrer;
  if (props && Object.keys(props).length) ev.props = props;
  if (elements && elements.length) ev.elements = elements;
  transport.enqueue(ev);
}

function pageView(navigation: Navigation, ts: string): void {
  if (!config) {
    pendingViews.push([navigation, ts]);
    return;
  }
  const props: Props = { navigation };
  if (config.privacy_mode === 'standard' && document.title) props.title = document.title.slice(0, 200);
  emit('pp.page_view', props, undefined, page.url, ts, page.referrer || undefined);
}

function endPage(): void {
  for (const f of features) f.pageEnd?.(page.url);
}

function startPage(navigation: Navigation): void {
  page.start = performance.now();
  pageView(navigation, isoNow());
  for (const f of features) f.pageStart?.();
}

// A new page view when the path or query changes, or a hash route (#/…, #!…) does; a
// plain in-page anchor is not a new page.
function pageKey(href: string): string {
  const i = href.indexOf('#');
  if (i < 0) return href;
  const hash = href.slice(i);
  return /^#!?\//.test(hash) ? href : href.slice(0, i);
}

function urlChanged(): void {
  const next = cleanUrl(location.href);
  if (next === page.url) return;
  for (const f of features) f.navigated?.();
  if (pageKey(next) === pageKey(page.url)) {
    page.url = next;
    return;
  }
  endPage();
  page.referrer = page.url;
  page.url = next;
  startPage('spa');
}

function watchNavigation(): void {
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      urlChanged();
      return result;
    };
  }
  on(window, 'popstate', urlChanged);
  on(window, 'hashchange', urlChanged);
  on(window, 'pagehide', () => {
    if (!config) settle(FALLBACK);
    for (const f of features) f.navigated?.();
    endPage();
    hidden();
  });
  on(document, 'visibilitychange', () => {
    if (document.visibilityState === 'hidden') hidden();
  });
  on(window, 'pageshow', (e: PageTransitionEvent) => {
    if (!e.persisted) return;
    page.url = cleanUrl(location.href);
    startPage('bfcache');
  });
}

function hidden(): void {
  for (const cb of hideCallbacks) {
    try {
      cb();
    } catch (err) {
      log('hide callback failed', err);
    }
  }
  transport.flushOnHide();
}

function pickerParams(): { token: string; nonce: string } | undefined {
  const q = new URLSearchParams(location.search);
  const token = q.get('pp_picker_token');
  const nonce = q.get('pp_picker_nonce');
  return token && nonce ? { token, nonce } : undefined;
}

function moduleContext(cfg: CollectConfig, picker: ModuleContext['pickerParams']): ModuleContext {
  return {
    version: TRACKER_VERSION,
    tracker: TRACKER,
    host,
    key,
    config: cfg,
    debug,
    track: (event, props, elements) => emit(event, props, elements),
    send: (path, body, bearer) => transport.send(path, body, bearer),
    anonymousId: () => identity.anonymousId(),
    sessionId: () => identity.peekSessionId(),
    onHide: (cb) => hideCallbacks.push(cb),
    describe: (el) => describe(el, cfg.privacy_mode),
    selector: (el) => selectorOf(el, cfg.privacy_mode),
    pageUrl: () => cleanUrl(location.href),
    pickerParams: picker,
  };
}

function startFeatures(cfg: CollectConfig): void {
  const cap: Capture = {
    mode: cfg.privacy_mode,
    emit: (e, p, els, url) => emit(e, p, els, url),
    sincePageStart: () => Math.round(performance.now() - page.start),
  };
  const has = (k: CollectConfig['collect'][number]): boolean => cfg.collect.includes(k);
  const list: Array<Feature | undefined> = [
    has('clicks') ? startClicks(cap) : undefined,
    has('hover_intent') ? startHover(cap) : undefined,
    has('sections') ? startSections(cap) : undefined,
    has('scroll') ? startScroll(cap) : undefined,
    has('forms') ? startForms(cap) : undefined,
  ];
  features = list.filter((f): f is Feature => !!f);
}

function settle(cfg: CollectConfig): void {
  if (config) return;
  config = cfg;
  log('configuration', cfg);
  for (const [navigation, ts] of pendingViews) pageView(navigation, ts);
  pendingViews = [];
  try {
    startFeatures(cfg);
  } catch (err) {
    log('autocapture failed to start', err);
  }
  const picker = pickerParams();
  const loader = new ModuleLoader(moduleBase(coreScript?.src, host), () => moduleContext(cfg, picker));
  if (cfg.collect.includes('diagnostics')) loader.load('diagnostics');
  if (cfg.collect.includes('replay') && sessionSampled(identity.peekSessionId(), cfg.replay_sample_rate)) loader.load('replay');
  if (picker) loader.load('picker');
}

function originOf(src: string | undefined): string | undefined {
  try {
    return src ? new URL(src, location.href).origin : undefined;
  } catch {
    return undefined;
  }
}

function init(opts: InitOptions): void {
  if (started) {
    log('init called twice; the first configuration stays');
    return;
  }
  const k = String((opts && opts.key) || '');
  const prefix = keyPrefix(k);
  if (!prefix) {
    console.error('[pp] init needs a browser key (pp_bt_…); nothing will be sent');
    return;
  }
  started = true;
  key = k;
  debug = !!opts.debug;
  setDebug(debug);
  host = String(opts.host || originOf(coreScript?.src) || location.origin).replace(/\/+$/, '');
  identity = new Identity(prefix);
  transport = new Transport(host, key, TRACKER);
  page.url = cleanUrl(location.href);
  page.referrer = cleanUrl(document.referrer);
  pageView('load', isoNow());
  watchNavigation();
  void fetchConfig(host, prefix).then(settle);
  const calls = early;
  early = [];
  for (const c of calls) c();
}

// Calls made before init (from the snippet's stub or in page code) wait for it.
function call(fn: () => void): void {
  if (started) fn();
  else if (early.length < MAX_EARLY_CALLS) early.push(fn);
}

function track(name: string, props?: Props): void {
  if (typeof name !== 'string' || !name) return log('track needs an event name');
  const p = props && typeof props === 'object' && !Array.isArray(props) ? { ...props } : undefined;
  call(() => emit(name, p));
}

function identify(userId: string, traits?: Props): void {
  if (userId === undefined || userId === null || userId === '') return log('identify needs a user id');
  const user = String(userId);
  const t = traits && typeof traits === 'object' && !Array.isArray(traits) ? { ...traits } : undefined;
  call(() => {
    // Repeating an identify on every page load adds nothing unless traits change.
    if (identity.userId() === user && !t) return;
    identity.setUser(user);
    const body: Props = { anonymous_id: identity.anonymousId(), user_id: user };
    if (t) body.traits = t;
    transport.send('/v1/identify', body, true);
  });
}

function alias(previousId: string, userId: string): void {
  if (!previousId || !userId) return log('alias needs a previous id and a user id');
  const body = { previous_id: String(previousId), user_id: String(userId) };
  call(() => transport.send('/v1/alias', body, true));
}

function reset(): void {
  call(() => identity.reset());
}

interface Api {
  trackerVersion: string;
  init: typeof init;
  track: typeof track;
  identify: typeof identify;
  alias: typeof alias;
  reset: typeof reset;
}

declare global {
  interface Window {
    pp?: Api | { q?: Array<[string, ArrayLike<unknown>]>; trackerVersion?: string };
  }
}

function install(): void {
  const existing = window.pp;
  // A second copy of the script on the page leaves the first one in charge.
  if (existing && existing.trackerVersion) return;
  const api: Api = { trackerVersion: TRACKER_VERSION, init, track, identify, alias, reset };
  window.pp = api;
  const queued = existing && 'q' in existing && Array.isArray(existing.q) ? existing.q : [];
  for (const [method, args] of queued) {
    const fn = (api as unknown as Record<string, unknown>)[method];
    if (typeof fn === 'function') fn.apply(api, Array.prototype.slice.call(args));
  }
  const data = coreScript ? coreScript.dataset : undefined;
  if (!started && data && data.key) init({ key: data.key, host: data.host, debug: data.debug !== undefined });
}

install();

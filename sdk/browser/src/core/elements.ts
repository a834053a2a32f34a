// Turns DOM elements into the privacy-safe descriptions sent on the wire: the target-first
// `elements` chain and short CSS selectors. Every privacy rule about elements lives here.
import type { ElementInfo, PrivacyMode } from '../shared/types.js';
import { truncate } from './util.js';

const MAX_DEPTH = 12;
const MAX_CLASSES = 10;
const MAX_TEXT = 100;
const MAX_ATTR = 200;
const NO_CAPTURE = '[data-pp-no-capture]';
const CARD_NAME = /card|cvv|cvc|csc|ccv|cc-?(num|exp|name)|expir|security.?code|iban|ssn/i;
// Text that looks like a card number or a social-security number is dropped.
const SENSITIVE_TEXT = /\b(?:\d[ -]?){13,19}\b|\b\d{3}-\d{2}-\d{4}\b/;
const FIELD_TAGS = ['INPUT', 'SELECT', 'TEXTAREA'];
const SKIP_TEXT_TAGS = ['INPUT', 'SELECT', 'TEXTAREA', 'SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG'];
const INTERACTIVE =
  'a[href],button,input,select,textarea,summary,label,[role=button],[role=link],[role=tab],[role=menuitem],[role=checkbox],[role=switch],[role=option],[onclick],[contenteditable=""],[contenteditable=true]';

// Password, hidden and card-like fields are never captured, whatever the mode.
export function isSensitiveField(el: Element): boolean {
  if (!FIELD_TAGS.includes(el.tagName)) return false;
  const type = (el.getAttribute('type') || '').toLowerCase();
  if (type === 'password' || type === 'hidden') return true;
  const ac = (el.getAttribute('autocomplete') || '').toLowerCase();
  if (/(^|\s)cc-/.test(ac) || ac.includes('one-time-code')) return true;
  return CARD_NAME.test(el.getAttribute('name') || '') || CARD_NAME.test(el.id || '');
}

export function isExcluded(el: Element): boolean {
  return !!el.closest(NO_CAPTURE) || isSensitiveField(el);
}

export function isField(el: Element): boolean {
  return FIELD_TAGS.includes(el.tagName);
}

export function interactiveAncestor(el: Element): Element | null {
  return el.closest(INTERACTIVE);
}

function nthChild(el: Element): number {
  let n = 1;
  for (let s = el.previousElementSibling; s; s = s.previousElementSibling) n++;
  return n;
}

function classesOf(el: Element): string[] {
  const out: string[] = [];
  const list = el.classList;
  for (let i = 0; i < list.length && out.length < MAX_CLASSES; i++) out.push(truncate(list[i], MAX_ATTR));
  return out;
}

// Visible text of the element itself, skipping form fields and excluded subtrees (a
// textarea's textContent is its value).
export function textOf(el: Element): string {
  let out = '';
  const walk = (node: Node): void => {
    for (let c = node.firstChild; c && out.length <= MAX_TEXT * 2; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue;
      else if (c.nodeType === 1) {
        const e = c as Element;
        if (!SKIP_TEXT_TAGS.includes(e.tagName.toUpperCase()) && !e.matches(NO_CAPTURE)) walk(e);
      }
    }
  };
  if (!isField(el)) walk(el);
  const text = truncate(out.replace(/\s+/g, ' ').trim(), MAX_TEXT);
  return SENSITIVE_TEXT.test(text) ? '' : text;
}

function hrefPath(value: string): string {
  try {
    const u = new URL(value, location.href);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return u.protocol;
    return u.origin === location.origin ? u.pathname : u.origin + u.pathname;
  } catch {
    return '';
  }
}

function attributesOf(el: Element): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  let any = false;
  const put = (k: string, v: string | null): void => {
    if (v === null || v === '') return;
    out[k] = truncate(v, MAX_ATTR);
    any = true;
  };
  if (el.hasAttribute('href')) put('href', hrefPath(el.getAttribute('href') || ''));
  for (const name of ['name', 'type', 'role', 'aria-label']) put(name, el.getAttribute(name));
  for (const a of Array.from(el.attributes)) {
    if (a.name.startsWith('data-pp-') && a.name !== 'data-pp-no-capture') put(a.name, a.value);
  }
  return any ? out : undefined;
}

function describeOne(el: Element, mode: PrivacyMode, withText: boolean): ElementInfo {
  const info: ElementInfo = { tag: el.tagName.toLowerCase(), nth_child: nthChild(el) };
  if (el.id) info.id = truncate(el.id, MAX_ATTR);
  const classes = classesOf(el);
  if (classes.length) info.classes = classes;
  if (mode === 'standard') {
    if (withText) {
      const text = textOf(el);
      if (text) info.text = text;
    }
    const attrs = attributesOf(el);
    if (attrs) info.attributes = attrs;
  }
  return info;
}

// Starts at the outermost <svg> when the target is drawn inside one: its paths are noise.
export function startOf(el: Element): Element {
  let svg: Element | null = null;
  for (let e: Element | null = el; e; e = e.parentElement) if (e.tagName.toLowerCase() === 'svg') svg = e;
  return svg || el;
}

export function describe(target: Element, mode: PrivacyMode): ElementInfo[] | null {
  if (isExcluded(target)) return null;
  const chain: ElementInfo[] = [];
  let el: Element | null = startOf(target);
  while (el && chain.length < MAX_DEPTH && el !== document.body && el !== document.documentElement) {
    // Text belongs to the target only: an ancestor's text is mostly unrelated page content.
    chain.push(describeOne(el, mode, chain.length === 0));
    el = el.parentElement;
  }
  return chain;
}

function esc(s: string): string {
  return typeof CSS !== 'undefined' && CSS.escape ? CSS.escape(s) : s.replace(/[^\w-]/g, (c) => '\\' + c);
}

// A short selector: stops at the nearest id (or field name in standard mode) or at `root`.
export function selectorOf(el: Element, mode: PrivacyMode, root?: Element): string {
  const parts: string[] = [];
  for (let e: Element | null = el; e && e !== root && e !== document.documentElement && parts.length < 6; e = e.parentElement) {
    const tag = e.tagName.toLowerCase();
    if (e.id) {
      parts.unshift(`${tag}#${esc(e.id)}`);
      break;
    }
    const name = e.getAttribute('name');
    if (mode === 'standard' && name && isField(e)) {
      parts.unshift(`${tag}[name="${name.replace(/["\\]/g, '\\$&')}"]`);
      break;
    }
    if (e === document.body) {
      parts.unshift('body');
      break;
    }
    const cls = classesOf(e)
      .slice(0, 3)
      .map((c) => '.' + esc(c))
      .join('');
    parts.unshift(`${tag}${cls}:nth-child(${nthChild(e)})`);
  }
  return parts.join(' > ');
}

// Element picker: started when the page URL carries pp_picker_token and pp_picker_nonce.
// Highlights the element under the mouse; a click sends its sanitized selector metadata to
// /v1/capture instead of reaching the page. Escape leaves picking mode.
import type { ModuleContext } from '../shared/types.js';
import { register } from './register.js';

const Z = '2147483647';

function box(css: Partial<CSSStyleDeclaration>): HTMLDivElement {
  const d = document.createElement('div');
  d.setAttribute('data-pp-no-capture', '');
  Object.assign(d.style, { position: 'fixed', zIndex: Z, boxSizing: 'border-box', font: '13px/1.4 system-ui,sans-serif' }, css);
  return d;
}

function start(ctx: ModuleContext): void {
  const params = ctx.pickerParams;
  if (!params) return;
  const highlight = box({ pointerEvents: 'none', border: '2px solid #2563eb', background: 'rgba(37,99,235,.12)', display: 'none' });
  const banner = box({ left: '50%', top: '8px', transform: 'translateX(-50%)', padding: '6px 12px', borderRadius: '6px', background: '#111827', color: '#fff', pointerEvents: 'none' });
  const say = (text: string): void => {
    banner.textContent = text;
  };
  say('pp: click an element to capture it · Esc to cancel');
  document.documentElement.appendChild(highlight);
  document.documentElement.appendChild(banner);

  let active = true;
  let hovered: Element | null = null;
  const ours = (el: Element | null): boolean => el === highlight || el === banner;

  const move = (e: MouseEvent): void => {
    const el = document.elementFromPoint(e.clientX, e.clientY);
    if (!el || ours(el)) return;
    hovered = el;
    const r = el.getBoundingClientRect();
    Object.assign(highlight.style, { display: 'block', left: `${r.left}px`, top: `${r.top}px`, width: `${r.width}px`, height: `${r.height}px` });
  };

  const swallow = (e: Event): void => {
    if (!active) return;
    e.preventDefault();
    e.stopImmediatePropagation();
  };

  const finish = (message: string): void => {
    active = false;
    say(message);
    highlight.style.display = 'none';
    for (const [type, fn] of listeners) removeEventListener(type, fn, true);
    setTimeout(() => {
      banner.remove();
      highlight.remove();
    }, 4000);
  };

  const pick = (e: MouseEvent): void => {
    swallow(e);
    const el = hovered || (e.target instanceof Element ? e.target : null);
    if (!el) return;
    const chain = ctx.describe(el);
    // Excluded and sensitive elements cannot become rules: they are never captured.
    if (!chain) return say('pp: this element is excluded from capture; pick another');
    const [element, ...rest] = chain;
    ctx.send(
      '/v1/capture',
      {
        picker_token: params.token,
        nonce: params.nonce,
        url: ctx.pageUrl(),
        selector: ctx.selector(el),
        element: { tag: element.tag, id: element.id, classes: element.classes || [], nth_child: element.nth_child, text: element.text },
        chain: [element, ...rest],
      },
      true,
    );
    finish('pp: element captured, you can return to pp');
  };

  const key = (e: KeyboardEvent): void => {
    if (e.key !== 'Escape') return;
    swallow(e);
    finish('pp: picking cancelled');
  };

  // Capture-phase listeners on window run before the page's own handlers and the core's
  // autocapture, so the page never sees the picking clicks.
  const listeners: Array<[string, (e: any) => void]> = [
    ['mousemove', move],
    ['click', pick],
    ['mousedown', swallow],
    ['mouseup', swallow],
    ['pointerdown', swallow],
    ['pointerup', swallow],
    ['auxclick', swallow],
    ['submit', swallow],
    ['keydown', key],
  ];
  for (const [type, fn] of listeners) addEventListener(type, fn, true);
}

register('picker', start);

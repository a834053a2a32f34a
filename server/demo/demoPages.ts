// The demo site's clickable elements and where they sit at a given window width, so that a demo
// click carries what tracker 0.6.5 sends (tracker.md): page position, window size, the offset
// inside the element in percent, and `fixed` for the sticky header. Drawing is left to the reports.

export interface Viewport {
  vw: number;
  vh: number;
}

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface DemoElement {
  /** The element chain as the tracker sends it, target first. */
  chain: Array<Record<string, unknown>>;
  box(vw: number): Box;
  /** In the sticky header: the page position depends on the scroll at the time of the click. */
  fixed?: boolean;
  interactive: boolean;
}

/** Window sizes by how often visitors have them: phones, a tablet, laptops, wide screens. */
const VIEWPORTS: ReadonlyArray<Viewport & { share: number }> = [
  { vw: 390, vh: 844, share: 0.2 },
  { vw: 412, vh: 915, share: 0.1 },
  { vw: 820, vh: 1180, share: 0.08 },
  { vw: 1280, vh: 720, share: 0.17 },
  { vw: 1366, vh: 768, share: 0.2 },
  { vw: 1536, vh: 864, share: 0.13 },
  { vw: 1920, vh: 1080, share: 0.12 },
];

export function pickViewport(rand: () => number): Viewport {
  let at = rand();
  for (const v of VIEWPORTS) {
    at -= v.share;
    if (at < 0) return { vw: v.vw, vh: v.vh };
  }
  return { vw: VIEWPORTS[0]!.vw, vh: VIEWPORTS[0]!.vh };
}

const HEADER_PX = 64;
const narrow = (vw: number) => vw < 768;

/** The content column: the whole width less gutters on phones, at most 1200 px centred elsewhere. */
function column(vw: number): { left: number; width: number } {
  if (narrow(vw)) return { left: 16, width: vw - 32 };
  const width = Math.min(1200, vw - 64);
  return { left: Math.round((vw - width) / 2), width };
}

/** A button centred in the column on wide layouts, as wide as the column on phones. */
function centred(width: number, top: number, phoneTop: number, height = 52) {
  return (vw: number): Box => {
    const c = column(vw);
    return narrow(vw) ? { left: c.left, top: phoneTop, width: c.width, height } : { left: c.left + Math.round((c.width - width) / 2), top, width, height };
  };
}

const hero = [
  { tag: 'section', nth_child: 1, classes: ['hero'] },
  { tag: 'main', nth_child: 2 },
];

export const HERO_CTA: DemoElement = {
  chain: [{ tag: 'button', id: 'hero-cta', nth_child: 3, text: 'Start free trial', classes: ['btn', 'btn-primary'] }, ...hero],
  box: centred(220, 430, 540),
  interactive: true,
};

/** The header links, in a row on the right of the sticky header (in its menu on phones). */
export function navLink(path: string, text: string, index: number, count: number): DemoElement {
  return {
    chain: [
      { tag: 'a', nth_child: index + 1, text, attributes: { href: path } },
      { tag: 'nav', nth_child: 2, classes: ['site-nav'] },
      { tag: 'header', nth_child: 1, classes: ['site-header'] },
    ],
    box: (vw) => {
      const c = column(vw);
      if (narrow(vw)) return { left: c.left, top: HEADER_PX + index * 48, width: c.width, height: 48 };
      return { left: c.left + c.width - (count - index) * 130, top: 20, width: 110, height: 24 };
    },
    fixed: true,
    interactive: true,
  };
}

/** The cards under the home page's hero: three a row on wide layouts, two on tablets, one on phones. */
export function homeCard(path: string, text: string, index: number): DemoElement {
  return {
    chain: [
      { tag: 'a', nth_child: index + 1, text, classes: ['card'], attributes: { href: path } },
      { tag: 'div', nth_child: 2, classes: ['cards'] },
      { tag: 'section', nth_child: 2, classes: ['highlights'] },
      { tag: 'main', nth_child: 2 },
    ],
    box: (vw) => {
      const c = column(vw);
      const perRow = narrow(vw) ? 1 : vw < 1024 ? 2 : 3;
      const gap = 24;
      const width = Math.round((c.width - gap * (perRow - 1)) / perRow);
      const height = narrow(vw) ? 200 : 240;
      const row = Math.floor(index / perRow);
      return { left: c.left + (index % perRow) * (width + gap), top: (narrow(vw) ? 760 : 720) + row * (height + gap), width, height };
    },
    interactive: true,
  };
}

const pricing = [
  { tag: 'section', nth_child: 3, classes: ['plans'] },
  { tag: 'main', nth_child: 2 },
];

export const PRICING_CTA: DemoElement = {
  chain: [{ tag: 'button', id: 'pricing-cta', nth_child: 4, text: 'Start free trial', classes: ['btn', 'btn-primary'] }, ...pricing],
  box: centred(240, 1160, 2380),
  interactive: true,
};

/** The plan comparison toggle: it answers slowly, so people click it again and again. */
export const COMPARE_PLANS: DemoElement = {
  chain: [{ tag: 'button', id: 'compare-plans', nth_child: 5, text: 'Compare all features', classes: ['btn', 'btn-link'] }, ...pricing],
  box: centred(200, 1240, 2460, 40),
  interactive: true,
};

/** The product screenshot on the features page: it looks as if it would open larger, and does not. */
export const FEATURE_SCREENSHOT: DemoElement = {
  chain: [
    { tag: 'img', nth_child: 2, classes: ['screenshot'] },
    { tag: 'figure', nth_child: 2, classes: ['feature'] },
    { tag: 'section', nth_child: 1, classes: ['features'] },
    { tag: 'main', nth_child: 2 },
  ],
  box: (vw) => {
    const c = column(vw);
    if (narrow(vw)) return { left: c.left, top: 620, width: c.width, height: Math.round(c.width * 0.62) };
    const width = Math.round(c.width * 0.55);
    return { left: c.left + c.width - width, top: 260, width, height: Math.round(width * 0.62) };
  },
  interactive: false,
};

export const SIGNUP_SUBMIT: DemoElement = {
  chain: [
    { tag: 'button', nth_child: 5, text: 'Create account', classes: ['btn', 'btn-primary'], attributes: { type: 'submit' } },
    { tag: 'form', id: 'signup', nth_child: 1 },
    { tag: 'main', nth_child: 2 },
  ],
  box: (vw) => {
    const c = column(vw);
    const width = narrow(vw) ? c.width : 420;
    return { left: narrow(vw) ? c.left : c.left + Math.round((c.width - width) / 2), top: narrow(vw) ? 520 : 560, width, height: 48 };
  },
  interactive: true,
};

export function upgradeButton(plan: string): DemoElement {
  return {
    chain: [
      { tag: 'button', id: 'upgrade', nth_child: 2, text: `Upgrade to ${plan}`, classes: ['btn', 'btn-primary'] },
      { tag: 'section', nth_child: 1, classes: ['plan-summary'] },
      { tag: 'main', nth_child: 2 },
    ],
    box: (vw) => {
      const c = column(vw);
      return narrow(vw) ? { left: c.left, top: 480, width: c.width, height: 48 } : { left: c.left + c.width - 260, top: 220, width: 220, height: 48 };
    },
    interactive: true,
  };
}

/** Where in an element people click: nearer its middle than its edges. */
const towardsMiddle = (rand: () => number) => (rand() + rand()) / 2;

export interface ClickPoint {
  x: number;
  y: number;
}

/** A point on the element at this window width, page coordinates; `scrollY` moves the sticky header with the page. */
export function pointOn(element: DemoElement, view: Viewport, rand: () => number, scrollY: number): ClickPoint {
  const box = element.box(view.vw);
  return {
    x: Math.round(box.left + towardsMiddle(rand) * box.width),
    y: Math.round(box.top + towardsMiddle(rand) * box.height + (element.fixed ? scrollY : 0)),
  };
}

/** What the tracker sends for a click at `point`: position, window, offset in the element, fixed. */
export function clickPlace(element: DemoElement, view: Viewport, point: ClickPoint, scrollY: number): Record<string, unknown> {
  const box = element.box(view.vw);
  const percent = (at: number, size: number) => Math.min(100, Math.max(0, Math.round((at / size) * 100)));
  const top = box.top + (element.fixed ? scrollY : 0);
  const where: Record<string, unknown> = { x: point.x, y: point.y, vw: view.vw, vh: view.vh, ox: percent(point.x - box.left, box.width), oy: percent(point.y - top, box.height) };
  if (element.fixed) where.fixed = true;
  return where;
}

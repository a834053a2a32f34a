// The page behavior reports (docs/behavior.md#page-behavior): pages ranked by event count with
// their click, rage/dead-click and scroll figures, and one page's figures with its click heatmap
// and clicked elements. The engine's statements (engine/<kind>/behaviorSql.ts) group events by
// normalized page and elements by their chain; elements are grouped by selector here, since the
// selector is the tracker's rule (elementSelector.ts).

import type { EventEngine } from '../engine/engine.js';
import type { CursorCodec } from '../queries/cursors.js';
import { HEATMAP_BANDS, X_STEP_PERCENT, Y_STEP_PX } from '../engine/rollups/clickDays.js';
import { compareText, num } from '../engine/sql.js';
import { statementsOf } from '../engine/statements.js';
import { ValidationError } from '../ground/errors.js';
import { normalizePageUrl, pathPartOf } from './pageUrl.js';
import { selectorOfChain, type ChainElement } from './elementSelector.js';
import { pageOf, positionOf, type ReportParams } from './reportParams.js';

export interface ReportContext {
  projectId: number;
  timezone: string;
  timeoutMs: number;
  privacyMode: 'standard' | 'strict';
}

export interface PageFigures {
  events: number;
  page_views: number;
  clicks: number;
  unique_clickers: number;
  rage_clicks: number;
  rage_click_rate: number;
  dead_clicks: number;
  dead_click_rate: number;
  scroll: { measured: number; reach_25: number | null; reach_50: number | null; reach_75: number | null; reach_100: number | null; mean_depth: number | null };
}

export const MAX_CELLS = 5000;

/**
 * The stored URLs of the range (the page rollup's, and the raw events' past it) whose page is one
 * of `pages`, each with its page; `part`, a text every such URL contains, narrows the read.
 */
export async function storedUrlsOf(store: EventEngine, pages: ReadonlySet<string>, p: ReportParams, ctx: ReportContext, part?: string): Promise<Map<string, string>> {
  const q = statementsOf(store).behavior.storedUrlsSql(p, ctx, part);
  const found = new Map<string, string>();
  for (const r of await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs })) {
    const page = normalizePageUrl(String(r.url));
    if (page !== null && pages.has(page)) found.set(String(r.url), page);
  }
  return found;
}

const num0 = (v: unknown) => (v === null || v === undefined ? 0 : num(v));

function figuresOf(r: Record<string, unknown>, uniqueClickers: number): PageFigures {
  const clicks = num0(r.clicks);
  const measured = num0(r.measured);
  const share = (k: string) => (measured === 0 ? null : num0(r[k]) / measured);
  return {
    events: num0(r.events),
    page_views: num0(r.page_views),
    clicks,
    unique_clickers: uniqueClickers,
    rage_clicks: num0(r.rage_clicks),
    rage_click_rate: clicks === 0 ? 0 : num0(r.rage_clicks) / clicks,
    dead_clicks: num0(r.dead_clicks),
    dead_click_rate: clicks === 0 ? 0 : num0(r.dead_clicks) / clicks,
    scroll: { measured, reach_25: share('r25'), reach_50: share('r50'), reach_75: share('r75'), reach_100: share('r100'), mean_depth: measured === 0 ? null : num0(r.depth_sum) / measured },
  };
}

type UrlPosition = [events: number, url: string];

/** GET /pages/behavior/urls: pages by event count (most first, then URL), keyset-paginated. */
export async function behaviorUrls(store: EventEngine, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const scope = { report: 'pages/behavior/urls', project: ctx.projectId, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<UrlPosition>(codec, scope, p.cursor);
  const q = statementsOf(store).behavior.behaviorUrlsSql(p, ctx, p.limit + 1, after);
  const found = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  const items = found.map((r) => ({ url: String(r.page), ...figuresOf(r, num0(r.unique_clickers)) }));
  return { date_from: p.date_from, date_to: p.date_to, ...pageOf(codec, scope, items, p.limit, (i): UrlPosition => [i.events, i.url]) };
}

export interface ElementRow {
  selector: string;
  tag: string;
  text: string | null;
  clicks: number;
  unique_clickers: number;
  rage_clicks: number;
  dead_clicks: number;
  cells: { x: number; y: number; clicks: number }[];
}

type ElementPosition = [clicks: number, rage: number, dead: number, selector: string];

/** GET /pages/behavior?url=: one page's figures, heatmap and clicked elements (keyset-paginated). */
export async function pageBehavior(store: EventEngine, url: string, p: ReportParams, ctx: ReportContext, codec: CursorCodec) {
  const page = normalizePageUrl(url);
  if (page === null) throw new ValidationError('url must not be empty', 'url');
  const scope = { report: 'pages/behavior', project: ctx.projectId, url: page, date_from: p.date_from, date_to: p.date_to, filters: p.filters, limit: p.limit };
  const after = positionOf<ElementPosition>(codec, scope, p.cursor);
  // First the stored URLs that are this page (a cheap read of the rollup), then everything else
  // from the events of those URLs alone.
  const urls = [...(await storedUrlsOf(store, new Set([page]), p, ctx, pathPartOf(page))).keys()].sort(compareText);
  const q = statementsOf(store).behavior.pageSummarySql(p, ctx, urls);
  const [summary = {}] = await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs });
  const rows = JSON.parse(String(summary.parts ?? '[]')) as Record<string, unknown>[];
  const { elements, clickedChains } = rankElements(
    rows.filter((r) => r.part === 'element'),
    ctx.privacyMode,
  );
  const start = after ? elements.findIndex((e) => compareElements(e, after) > 0) : 0;
  const rest = start < 0 ? [] : elements.slice(start, start + p.limit + 1);
  const clickers = await elementClickers(store, rest, clickedChains, urls, p, ctx);
  for (const el of rest) el.unique_clickers = clickers.get(el.selector) ?? 0;
  return {
    url: page,
    date_from: p.date_from,
    date_to: p.date_to,
    privacy_mode: ctx.privacyMode,
    summary: figuresOf(summary, num0(summary.n)),
    heatmap: heatmapOf(rows),
    ...pageOf(codec, scope, rest, p.limit, (e): ElementPosition => [e.clicks, e.rage_clicks, e.dead_clicks, e.selector]),
  };
}

/**
 * Distinct clicking actors per selector of `elements`, from the pp.click clickers of the page's
 * stored URLs whose chain is one of the selector's (`clickedChains`), as the element rollup keeps
 * them per chain and day: several chains and days may hold one actor, so actors are counted over all.
 */
async function elementClickers(store: EventEngine, elements: ElementRow[], clickedChains: Map<string, string[]>, urls: string[], p: ReportParams, ctx: ReportContext): Promise<Map<string, number>> {
  const pairs = elements.flatMap((el) => (clickedChains.get(el.selector) ?? []).map((chain) => [chain, el.selector] as const));
  if (pairs.length === 0 || urls.length === 0) return new Map();
  const q = statementsOf(store).behavior.elementClickersSql(p, ctx, urls, pairs);
  const found = new Map<string, number>();
  for (const r of await store.read(q.sql, q.params, { timeoutMs: ctx.timeoutMs })) found.set(String(r.selector), num(r.n));
  return found;
}

function heatmapOf(rows: Record<string, unknown>[]) {
  const bands = HEATMAP_BANDS.map((band, i) => {
    const mine = rows.filter((r) => r.part === 'cell' && r.k1 === band.band);
    const placed = mine.filter((r) => r.k2 !== null).map((r) => ({ x: num(r.k2), y: num(r.k3), clicks: num(r.n) }));
    placed.sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x);
    const fixed = mine.filter((r) => r.k2 === null).reduce((s, r) => s + num(r.n), 0);
    return {
      band: band.band,
      min_width: band.min_width,
      max_width: i + 1 < HEATMAP_BANDS.length ? HEATMAP_BANDS[i + 1]!.min_width - 1 : null,
      clicks: placed.reduce((s, c) => s + c.clicks, 0) + fixed,
      fixed_clicks: fixed,
      cells: placed.slice(0, MAX_CELLS),
      truncated: placed.length > MAX_CELLS,
    };
  });
  const unplaced = rows.filter((r) => r.part === 'unplaced').reduce((s, r) => s + num(r.n), 0);
  return { x_step_percent: X_STEP_PERCENT, y_step_px: Y_STEP_PX, unplaced, bands };
}

function parseChain(text: unknown): ChainElement[] | null {
  if (typeof text !== 'string') return null;
  try {
    const chain = JSON.parse(text) as unknown;
    return Array.isArray(chain) && chain.length > 0 && chain.every((e) => typeof e === 'object' && e !== null) ? (chain as ChainElement[]) : null;
  } catch {
    return null;
  }
}

/** Element rows (event, cell, chain, count) merged by selector and ranked, with each selector's clicked chains. */
function rankElements(rows: Record<string, unknown>[], mode: 'standard' | 'strict'): { elements: ElementRow[]; clickedChains: Map<string, string[]> } {
  const bySelector = new Map<string, ElementRow & { texts: Map<string, number>; cellMap: Map<string, number>; chains: Set<string> }>();
  const selectors = new Map<string, { selector: string; chain: ChainElement[] } | null>();
  for (const r of rows) {
    const key = String(r.k4);
    if (!selectors.has(key)) {
      const chain = parseChain(r.k4);
      selectors.set(key, chain ? { selector: selectorOfChain(chain), chain } : null);
    }
    const parsed = selectors.get(key);
    if (!parsed) continue;
    let el = bySelector.get(parsed.selector);
    if (!el) {
      el = {
        selector: parsed.selector,
        tag: String(parsed.chain[0]!.tag ?? ''),
        text: null,
        clicks: 0,
        unique_clickers: 0,
        rage_clicks: 0,
        dead_clicks: 0,
        cells: [],
        texts: new Map(),
        cellMap: new Map(),
        chains: new Set(),
      };
      bySelector.set(parsed.selector, el);
    }
    const n = num(r.n);
    if (r.k1 === 'pp.click') {
      el.clicks += n;
      el.chains.add(key);
      const text = parsed.chain[0]!.text;
      if (typeof text === 'string' && text !== '') el.texts.set(text, (el.texts.get(text) ?? 0) + n);
      if (r.k2 !== null && r.k3 !== null) {
        const cell = `${num(r.k2)},${num(r.k3)}`;
        el.cellMap.set(cell, (el.cellMap.get(cell) ?? 0) + n);
      }
    } else if (r.k1 === 'pp.rage_click') el.rage_clicks += n;
    else el.dead_clicks += n;
  }
  const out: ElementRow[] = [];
  const clickedChains = new Map<string, string[]>();
  for (const el of bySelector.values()) {
    if (el.chains.size > 0) clickedChains.set(el.selector, [...el.chains]);
    const texts = [...el.texts].sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
    const cells = [...el.cellMap].map(([k, clicks]) => {
      const [x, y] = k.split(',').map(Number) as [number, number];
      return { x, y, clicks };
    });
    cells.sort((a, b) => b.clicks - a.clicks || a.y - b.y || a.x - b.x);
    out.push({
      selector: el.selector,
      tag: el.tag,
      text: mode === 'standard' ? (texts[0]?.[0] ?? null) : null,
      clicks: el.clicks,
      unique_clickers: 0,
      rage_clicks: el.rage_clicks,
      dead_clicks: el.dead_clicks,
      cells,
    });
  }
  return { elements: out.sort((a, b) => compareElements(a, [b.clicks, b.rage_clicks, b.dead_clicks, b.selector])), clickedChains };
}

/** Ranking order: clicks, rage clicks, dead clicks (most first), then selector. */
function compareElements(e: ElementRow, k: ElementPosition): number {
  return k[0] - e.clicks || k[1] - e.rage_clicks || k[2] - e.dead_clicks || compareText(e.selector, k[3]);
}

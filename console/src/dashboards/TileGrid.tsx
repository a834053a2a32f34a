// A dashboard's tiles on a grid of 12 columns and rows of fixed height, each tile as wide and tall
// as its layout says, showing its insight's answer (or its text); what does not fit scrolls inside
// the tile, which then also offers its insight opened whole. Where the layout may change, a tile is
// moved by dragging its handle onto another tile and resized by dragging its corner, and the same
// changes are buttons for the keyboard; every change hands the whole new layout up.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { useAsync } from '../ui/useAsync';
import { AnswerView, kindLabel } from '../queries/registry';
import { DownloadCsv } from '../queries/answerCsv';
import type { Dashboard, Tile } from './dashboardsApi';

export const MAX_WIDTH = 12;
export const MAX_HEIGHT = 8;
/** The grid's gap and row height in pixels, as dashboards.css draws them. */
const GAP = 16;
const ROW = 120;

const clamp = (n: number, low: number, high: number) => Math.max(low, Math.min(high, n));

/** What the tiles' answers depend on besides their own query: the dashboard's range and filters. */
export const overridesKey = (d: Pick<Dashboard, 'date_from' | 'date_to' | 'date_range' | 'filters'>) => JSON.stringify([d.date_from, d.date_to, d.date_range, d.filters]);

export const tileTitle = (tile: Tile): string => (tile.kind === 'text' ? 'Text' : (tile.insight?.name ?? 'Insight'));

/** The tiles in a new order, `tile` at `to`. */
function moved<T extends Tile>(tiles: T[], id: number, to: number): T[] {
  const from = tiles.findIndex((t) => t.id === id);
  if (from < 0 || to < 0 || to >= tiles.length || from === to) return tiles;
  const next = tiles.slice();
  const [tile] = next.splice(from, 1);
  next.splice(to, 0, tile!);
  return next;
}

const resized = <T extends Tile>(tiles: T[], id: number, size: { width: number; height: number }): T[] =>
  tiles.map((t) => (t.id === id ? { ...t, width: clamp(size.width, 1, MAX_WIDTH), height: clamp(size.height, 1, MAX_HEIGHT) } : t));

export function TileGrid<T extends Tile>({
  tiles,
  revision,
  loadResult,
  onLayout,
  titleHref,
  tools,
}: {
  tiles: T[];
  /** Changes when the dashboard's range or filters change, so every answer is asked again. */
  revision: string;
  loadResult(tile: T): Promise<unknown>;
  /** Given, the layout can be changed: the tiles in their new order and sizes. */
  onLayout?(tiles: T[]): void;
  titleHref?(tile: T): string | undefined;
  /** More buttons of a tile (remove, edit text). */
  tools?(tile: T): ComponentChildren;
}) {
  const grid = useRef<HTMLDivElement>(null);
  const [drag, setDrag] = useState<{ id: number; over?: number }>();
  const [resize, setResize] = useState<{ id: number; width: number; height: number }>();
  const shown = resize ? resized(tiles, resize.id, resize) : tiles;

  const tileUnder = (e: PointerEvent) => {
    const el = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-tile-id]');
    return el ? Number(el.dataset.tileId) : undefined;
  };
  const dragHandlers = (tile: T) => ({
    onPointerDown: (e: PointerEvent) => {
      e.preventDefault();
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      setDrag({ id: tile.id });
    },
    onPointerMove: (e: PointerEvent) => drag?.id === tile.id && setDrag({ id: tile.id, over: tileUnder(e) }),
    onPointerUp: (e: PointerEvent) => {
      const over = tileUnder(e);
      setDrag(undefined);
      if (over !== undefined && over !== tile.id)
        onLayout?.(
          moved(
            tiles,
            tile.id,
            tiles.findIndex((t) => t.id === over),
          ),
        );
    },
    onPointerCancel: () => setDrag(undefined),
  });
  const sizeAt = (tileEl: HTMLElement, e: PointerEvent) => {
    const box = tileEl.getBoundingClientRect();
    const column = (grid.current!.getBoundingClientRect().width + GAP) / MAX_WIDTH;
    return { width: clamp(Math.round((e.clientX - box.left + GAP) / column), 1, MAX_WIDTH), height: clamp(Math.round((e.clientY - box.top + GAP) / (ROW + GAP)), 1, MAX_HEIGHT) };
  };
  const resizeHandlers = (tile: T) => ({
    onPointerDown: (e: PointerEvent) => {
      e.preventDefault();
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
      setResize({ id: tile.id, width: tile.width, height: tile.height });
    },
    onPointerMove: (e: PointerEvent) => resize?.id === tile.id && setResize({ id: tile.id, ...sizeAt((e.currentTarget as HTMLElement).closest('[data-tile-id]')!, e) }),
    onPointerUp: (e: PointerEvent) => {
      if (resize?.id !== tile.id) return;
      const size = sizeAt((e.currentTarget as HTMLElement).closest('[data-tile-id]')!, e);
      setResize(undefined);
      // `tile` is the previewed one: compare with the size the layout holds.
      const held = tiles.find((t) => t.id === tile.id)!;
      if (size.width !== held.width || size.height !== held.height) onLayout?.(resized(tiles, tile.id, size));
    },
    onPointerCancel: () => setResize(undefined),
  });

  if (tiles.length === 0) return null;
  return (
    <div class="dash-grid" ref={grid} data-testid="dash-grid">
      {shown.map((tile, i) => {
        const title = tileTitle(tile);
        const href = titleHref?.(tile);
        const headingId = `tile-${tile.id}-title`;
        const classes = ['dash-tile', `w-${tile.width}`, `h-${tile.height}`, drag?.id === tile.id ? 'dragging' : '', drag && drag.over === tile.id && drag.id !== tile.id ? 'drop-target' : ''];
        return (
          <article key={tile.id} class={classes.filter(Boolean).join(' ')} aria-labelledby={headingId} data-tile-id={tile.id} data-testid="dash-tile" data-width={tile.width} data-height={tile.height}>
            <div class="dash-tile-head">
              {onLayout && (
                <span class="dash-handle" title="Drag to move" aria-hidden="true" data-testid="drag-handle" {...dragHandlers(tile)}>
                  ⋮⋮
                </span>
              )}
              <h2 id={headingId}>{href ? <a href={href}>{title}</a> : title}</h2>
              {tile.insight && <span class="badge dash-tile-kind">{kindLabel(tile.insight.kind)}</span>}
            </div>
            <TileBody title={title} href={href}>
              {tile.kind === 'text' ? <TextTile text={tile.text ?? ''} /> : <TileAnswer tile={tile} revision={revision} load={loadResult as (tile: Tile) => Promise<unknown>} />}
            </TileBody>
            {(onLayout || tools) && (
              <div class="dash-tools" role="group" aria-label={`${title}, tile`}>
                {onLayout && (
                  <>
                    <button type="button" class="button secondary" disabled={i === 0} aria-label={`Move ${title} left`} onClick={() => onLayout(moved(tiles, tile.id, i - 1))}>
                      ←
                    </button>
                    <button type="button" class="button secondary" disabled={i === tiles.length - 1} aria-label={`Move ${title} right`} onClick={() => onLayout(moved(tiles, tile.id, i + 1))}>
                      →
                    </button>
                    <button
                      type="button"
                      class="button secondary"
                      disabled={tile.width <= 1}
                      aria-label={`Make ${title} narrower`}
                      onClick={() => onLayout(resized(tiles, tile.id, { width: tile.width - 1, height: tile.height }))}
                    >
                      Narrower
                    </button>
                    <button
                      type="button"
                      class="button secondary"
                      disabled={tile.width >= MAX_WIDTH}
                      aria-label={`Make ${title} wider`}
                      onClick={() => onLayout(resized(tiles, tile.id, { width: tile.width + 1, height: tile.height }))}
                    >
                      Wider
                    </button>
                    <button
                      type="button"
                      class="button secondary"
                      disabled={tile.height <= 1}
                      aria-label={`Make ${title} shorter`}
                      onClick={() => onLayout(resized(tiles, tile.id, { width: tile.width, height: tile.height - 1 }))}
                    >
                      Shorter
                    </button>
                    <button
                      type="button"
                      class="button secondary"
                      disabled={tile.height >= MAX_HEIGHT}
                      aria-label={`Make ${title} taller`}
                      onClick={() => onLayout(resized(tiles, tile.id, { width: tile.width, height: tile.height + 1 }))}
                    >
                      Taller
                    </button>
                  </>
                )}
                {tools?.(tile)}
              </div>
            )}
            {onLayout && <span class="dash-resize" title="Drag to resize" aria-hidden="true" data-testid="resize-handle" {...resizeHandlers(tile)} />}
          </article>
        );
      })}
    </div>
  );
}

/**
 * A tile's content, scrolling inside the tile when it is taller or wider than the tile; an
 * insight tile that does not fit also links to its insight, where the answer is drawn whole.
 */
function TileBody({ title, href, children }: { title: string; href?: string; children: ComponentChildren }) {
  const body = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const overflows = useOverflow(body, content);
  return (
    <>
      <div ref={body} class={`dash-tile-body${overflows ? ' overflowing' : ''}`} tabIndex={0} role="region" aria-label={`${title}, answer`} data-overflows={String(overflows)}>
        <div ref={content}>{children}</div>
      </div>
      {overflows && href && (
        <p class="dash-tile-more">
          <span class="muted">Scroll for more, or</span>{' '}
          <a href={href} aria-label={`Open ${title}`} data-testid="tile-open">
            Open
          </a>
        </p>
      )}
    </>
  );
}

/** Whether `content` no longer fits the scrolling `box`, followed as either changes size. */
function useOverflow(box: { current: HTMLElement | null }, content: { current: HTMLElement | null }): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el || !content.current) return;
    // One pixel of slack: fractional row heights round differently in scroll and client sizes.
    const measure = () => setOverflows(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    observer.observe(content.current);
    return () => observer.disconnect();
  }, []);
  return overflows;
}

/** One insight tile's answer, asked again when the dashboard's overrides change. */
function TileAnswer({ tile, revision, load }: { tile: Tile; revision: string; load(tile: Tile): Promise<unknown> }) {
  const answer = useAsync(() => load(tile), [tile.id, revision]);
  if (answer.error) return <ErrorNote error={answer.error} />;
  if (answer.loading || answer.data === undefined) return <Loading label="Running the query…" />;
  if (!tile.insight) return <Empty title="This insight is gone" />;
  return (
    <div data-testid="tile-answer" data-kind={tile.insight.kind} data-revision={revision}>
      <div class="answer-actions">
        <DownloadCsv data={answer.data} name={tile.insight.name ?? kindLabel(tile.insight.kind)} />
      </div>
      <AnswerView kind={tile.insight.kind} query={tile.insight.query} data={answer.data} />
    </div>
  );
}

/** A text tile: blank lines separate its paragraphs. */
function TextTile({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\s*\n/).map((paragraph) => (
        <p class="dash-tile-text">{paragraph}</p>
      ))}
    </>
  );
}

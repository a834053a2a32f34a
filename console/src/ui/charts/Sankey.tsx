// A Sankey graph in SVG, laid out by d3-sankey: one column per step, nodes as bars labelled with
// their text and count, links as bands as wide as the units they carry. Nodes that can be picked
// get a button laid over their bar, outside the picture, so they stay in the tab order and in the
// accessibility tree. The graph is drawn in two passes: first the columns the window can show,
// without the buttons, then in the next task the whole graph, so a graph several screens wide
// does not hold back its first screen. It never fetches.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { sankey, sankeyLinkHorizontal, type SankeyLink, type SankeyNode } from 'd3-sankey';
import { useDrawnMark, useStable } from './drawn';
import { formatNumber } from '../format';

export interface FlowNode {
  /** The node's column: steps are consecutive integers, smallest on the left. */
  step: number;
  label: string;
  count: number;
  /** Drawn in a quiet color (folded or ended routes). */
  muted?: boolean;
  /** The accessible name of the node's button; a node without one cannot be picked. */
  action?: string;
  /** An identifier for tests and styles, e.g. the item. */
  key: string;
}

export interface FlowLink {
  /** Indexes into the nodes; links run from a step to the next. */
  source: number;
  target: number;
  value: number;
}

type Laid = SankeyNode<FlowNode & { fixedValue: number }, FlowLink>;

const COLUMN_W = 210;
const ROW_H = 52;
const PAD = 10;
const NODE_W = 14;
const LABEL_CHARS = 26;
/** A node's button covers its bar and its label. */
const HIT_W = 190;
/** Room right of the last column for its labels (the other columns' sit between columns). */
const LABEL_W = HIT_W - NODE_W;

const mid = (n: Laid) => (n.y0! + n.y1!) / 2;
const hitH = (n: Laid) => Math.max(36, n.y1! - n.y0!);

/** How far the nearest node's middle must be from a node's for its label on two lines (text, count), on one. */
const TWO_LINES = 32;
const ONE_LINE = 17;

const shorten = (text: string) => (text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text);

/** `onPickLink`: a link clicked with the mouse (its index); the page offers the same by keyboard elsewhere. */
export function SankeyChart({ title, nodes, links, onPick, onPickLink }: { title: string; nodes: FlowNode[]; links: FlowLink[]; onPick(index: number): void; onPickLink?(index: number): void }) {
  const data = useStable({ nodes, links });
  useDrawnMark(data);
  const graph = useMemo(() => layout(data.nodes, data.links), [data]);
  const { width, height } = graph;
  const minWidth = Math.min(width, graph.columns * 150);
  // The graph drawn whole once (after its first screen was painted); a new graph starts again.
  const [wholeFor, setWholeFor] = useState<unknown>(null);
  useEffect(() => {
    if (wholeFor === graph) return;
    const later = setTimeout(() => setWholeFor(graph));
    return () => clearTimeout(later);
  }, [graph, wholeFor]);
  // The figure is at least minWidth wide, so a node at or right of this (in the graph's units)
  // starts a window's width or more into it: off the first screen.
  const whole = wholeFor === graph;
  const edge = whole ? Infinity : (window.innerWidth * width) / minWidth;
  const nodesShown = graph.nodes.filter((n) => n.x0! < edge);
  const linksShown = graph.links.filter((l) => (l.source as Laid).x0! < edge);
  const path = sankeyLinkHorizontal();
  return (
    <div class="scroll-x" tabIndex={0} role="region" aria-label={`${title} (scrolls sideways)`}>
      <figure class="chart sankey" data-testid="sankey" data-drawn={whole ? 'whole' : 'first screen'} style={{ minWidth: `${minWidth}px` }}>
        <div class="sankey-frame">
          <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title} class="svg-chart">
            <g class="sankey-links">
              {linksShown.map((l) => (
                <path
                  d={path(l) ?? ''}
                  stroke-width={Math.max(1, l.width ?? 1)}
                  class={`${(l.source as Laid).muted || (l.target as Laid).muted ? 'sankey-link muted' : 'sankey-link'}${onPickLink ? ' pickable' : ''}`}
                  data-source={(l.source as Laid).key}
                  data-target={(l.target as Laid).key}
                  onClick={onPickLink && (() => onPickLink(l.index!))}
                />
              ))}
            </g>
            {nodesShown.map((n) => {
              // Labels sit right of their bars; the last column's in the room kept for them.
              const x = n.x1! + 6;
              return (
                <>
                  <rect class={n.muted ? 'sankey-node muted' : 'sankey-node'} data-item={n.key} data-step={n.step} x={n.x0} y={n.y0} width={n.x1! - n.x0!} height={Math.max(1, n.y1! - n.y0!)} />
                  {label(n, graph.room[n.index!]!, x)}
                </>
              );
            })}
          </svg>
          <div class="sankey-picks">
            {/* The buttons, unseen, come with the second pass. */}
            {(whole ? nodesShown : []).map(
              (n) =>
                n.action && (
                  <button
                    type="button"
                    class="sankey-pick"
                    data-item={n.key}
                    aria-label={n.action}
                    title={n.action}
                    style={{
                      left: `${(n.x0! / width) * 100}%`,
                      top: `${((mid(n) - hitH(n) / 2) / height) * 100}%`,
                      width: `${(HIT_W / width) * 100}%`,
                      height: `${(hitH(n) / height) * 100}%`,
                    }}
                    onClick={() => onPick(n.index!)}
                  />
                ),
            )}
          </div>
        </div>
      </figure>
    </div>
  );
}

/**
 * A node's text and count, beside its bar: on two lines when its neighbours in the column leave
 * room, else on one, else none (the count is still in the button's name and the routes table).
 */
function label(n: Laid, room: number, x: number) {
  const y = mid(n);
  if (room >= TWO_LINES) {
    return (
      <text x={x} y={y - 3} class="bar-label">
        {shorten(n.label)}
        <tspan x={x} dy={15} class="bar-sub">
          {formatNumber(n.count)}
        </tspan>
      </text>
    );
  }
  if (room < ONE_LINE) return null;
  return (
    <text x={x} y={y + 4} class="bar-label">
      {shorten(n.label)}
      <tspan dx={6} class="bar-sub">
        {formatNumber(n.count)}
      </tspan>
    </text>
  );
}

/** By node index, the distance from its middle to the nearest middle of another node of its column. */
function roomOf(nodes: Laid[]): number[] {
  const room = nodes.map(() => Infinity);
  const columns = new Map<number, Laid[]>();
  for (const n of nodes) {
    if (!columns.has(n.step)) columns.set(n.step, []);
    columns.get(n.step)!.push(n);
  }
  for (const column of columns.values()) {
    column.sort((a, b) => mid(a) - mid(b));
    for (let i = 1; i < column.length; i++) {
      const gap = mid(column[i]!) - mid(column[i - 1]!);
      room[column[i]!.index!] = Math.min(room[column[i]!.index!]!, gap);
      room[column[i - 1]!.index!] = Math.min(room[column[i - 1]!.index!]!, gap);
    }
  }
  return room;
}

/** The graph placed in a box that grows with the steps and the fullest column. */
function layout(nodes: FlowNode[], links: FlowLink[]) {
  const first = Math.min(...nodes.map((n) => n.step));
  const lastStep = Math.max(...nodes.map((n) => n.step));
  const columns = lastStep - first + 1;
  const perColumn = new Map<number, number>();
  for (const n of nodes) perColumn.set(n.step, (perColumn.get(n.step) ?? 0) + 1);
  const width = Math.max(860, (columns - 1) * COLUMN_W + NODE_W + LABEL_W);
  const height = Math.max(200, Math.max(...perColumn.values()) * ROW_H + PAD * 2);
  const laid = sankey<FlowNode & { fixedValue: number }, FlowLink>()
    .nodeWidth(NODE_W)
    .nodePadding(22)
    // Nodes stay where the API's order puts them in their column, spread evenly. Moving them
    // toward their links (d3-sankey's relaxation) changed the picture little and cost 13 ms of
    // the largest graph's 90.
    .iterations(0)
    // Columns by step, not by the longest chain: a route that began early (before the anchor)
    // still sits in its own step's column. The API's order within a step is kept.
    .nodeAlign((n) => n.step - first)
    .nodeSort(null)
    .extent([
      [1, PAD],
      [width - LABEL_W, height - PAD],
    ])({
    nodes: nodes.map((n) => ({ ...n, fixedValue: n.count })),
    links: links.map((l) => ({ ...l })),
  });
  return { nodes: laid.nodes as Laid[], room: roomOf(laid.nodes as Laid[]), links: laid.links as Array<SankeyLink<FlowNode & { fixedValue: number }, FlowLink>>, width, height, columns };
}

// Paths: the people behind a node or a link of the whole graph (licensed): who passed there, each a
// link to their page and, when they have recordings, to watch them; the node's links to the next
// step open theirs, and a named node can anchor the query.

import { useEffect, useRef } from 'preact/hooks';
import { PersonLink } from '../../persons/PersonLink';
import { recordingsHref, WatchLink } from '../../replay/WatchLink';
import { formatNumber } from '../../ui/format';
import { LoadMore, usePaged } from '../../ui/usePaged';
import type { QueryAnswer, QueryBody } from '../queryTypes';
import { runQuery } from '../useQuery';
import { isNamed, itemLabel } from './View';
import type { Direction } from './codec';

/** A node (step, item) of the graph, or with `next_item` its link to the next step. */
export interface PathsSpot {
  step: number;
  item: string;
  next_item?: string;
}

type Graph = QueryAnswer<'paths'>['sankey'];

export function PathsPeople({
  projectId,
  body,
  graph,
  direction,
  spot,
  onSpot,
  onAnchor,
}: {
  projectId: number;
  body: QueryBody<'paths'>;
  graph: Graph;
  direction: Direction;
  spot: PathsSpot;
  onSpot(s: PathsSpot): void;
  onAnchor?(item: string): void;
}) {
  const { breakdown: _b, ...whole } = body;
  const paged = usePaged((cursor) => runQuery('paths/actors', projectId, { ...whole, ...spot, ...(cursor ? { cursor } : {}) }), [projectId, JSON.stringify(whole), JSON.stringify(spot)]);
  const label = (item: string) => itemLabel(item, direction);
  const title =
    spot.next_item === undefined ? `People at ${label(spot.item)}, step ${spot.step}` : `People from ${label(spot.item)} (step ${spot.step}) to ${label(spot.next_item)} (step ${spot.step + 1})`;
  // The node's links on to the next step, each a list of its own.
  const at = graph.nodes.findIndex((n) => n.step === spot.step && n.item === spot.item);
  const onward = graph.links.filter((l) => l.source === at || l.target === at).filter((l) => graph.nodes[l.source]!.step === spot.step);
  const first = paged.first;
  // The card sits below the routes table: a pick brings it into view.
  const card = useRef<HTMLDivElement>(null);
  const spotKey = JSON.stringify(spot);
  useEffect(() => card.current?.scrollIntoView({ block: 'nearest' }), [spotKey]);
  return (
    <div class="card" role="group" aria-labelledby="paths-people-title" ref={card}>
      <h2 id="paths-people-title">{title}</h2>
      {first && (
        <p class="result-meta" data-testid="paths-people-count">
          {formatNumber(first.total)} {first.total === 1 ? 'person' : 'people'}
          {first.units !== first.total && ` in ${formatNumber(first.units)} sessions`}
        </p>
      )}
      {spot.next_item === undefined && onAnchor && isNamed(spot.item) && (
        <button type="button" class="button secondary small" onClick={() => onAnchor(spot.item)}>
          Anchor the routes on {spot.item}
        </button>
      )}
      {spot.next_item === undefined && onward.length > 0 && (
        <ul class="chip-list" aria-label={`Links from ${label(spot.item)}`}>
          {onward.map((l) => (
            <li>
              <button type="button" class="chip" onClick={() => onSpot({ ...spot, next_item: graph.nodes[l.target]!.item })}>
                to {label(graph.nodes[l.target]!.item)} ({formatNumber(l.value)})
              </button>
            </li>
          ))}
        </ul>
      )}
      {first && paged.items.length === 0 && <p class="muted">Nobody passed here.</p>}
      {paged.items.length > 0 && (
        <ul class="actor-list" data-testid="paths-people">
          {paged.items.map((a) => (
            <li>
              <PersonLink projectId={projectId} actorId={a.actor_id} />{' '}
              {a.recorded && <WatchLink href={recordingsHref(projectId, { person: a.actor_id })} label={`Watch the recordings of ${a.actor_id}`} />}
            </li>
          ))}
        </ul>
      )}
      <LoadMore paged={paged} what="people" />
    </div>
  );
}

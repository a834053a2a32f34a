// Paths' graph and top routes as its page and a dashboard tile show them.

import { SankeyChart, type FlowNode } from '../../ui/charts/Sankey';
import { formatNumber, formatPercent, valueLabel } from '../../ui/format';
import { Empty } from '../../ui/states';
import { TableHead } from '../../ui/TableHead';
import { Table } from '../../ui/Table';
import { ChoiceControl } from '../controls/Controls';
import type { QueryAnswer } from '../queryTypes';
import type { Direction } from './codec';

type PathNode = QueryAnswer<'paths'>['sankey']['nodes'][number];

const OTHER = '$other';
const END = '$end';

export const isNamed = (item: string) => item !== OTHER && item !== END;

/** `$other` folds items past top_n; `$end` is where routes stopped (before the anchor: began). */
export function itemLabel(item: string, direction: Direction): string {
  if (item === OTHER) return 'Other';
  if (item === END) return direction === 'after' ? 'Route ends' : 'Route starts';
  return item;
}

type PathsQuery = { selected_event?: string; min_count?: number };

/** Picks on the whole graph that open the people there: of a node, of a link (indexes into the graph). */
export interface PeoplePicks {
  node(index: number): void;
  link(index: number): void;
}

/**
 * The units, the graph and the top routes, as the page and a dashboard tile show them. With
 * `onSegment` a breakdown's segment can be chosen; with `onPick` a named node anchors the query;
 * with `people`, nodes and links of the whole graph open their people instead (a segment's graph
 * still anchors).
 */
export function PathsAnswer({
  query,
  data: d,
  segment = '',
  onSegment,
  onPick,
  people,
}: {
  query: PathsQuery;
  data: QueryAnswer<'paths'>;
  segment?: string;
  onSegment?(v: string): void;
  onPick?(item: string): void;
  people?: PeoplePicks;
}) {
  const event = query.selected_event ?? 'pp.page_view';
  const minCount = query.min_count ?? 1;
  if (d.units === 0) return <Empty title={`No ${unitWord(d.counted)} with ${event} from ${d.date_from} to ${d.date_to}`}>Widen the dates, loosen the filters or choose another event or page.</Empty>;
  return (
    <>
      {d.breakdown && onSegment && (
        <ChoiceControl
          label="Segment"
          value={d.breakdown.some((g) => g.name === segment) ? segment : ''}
          choices={[['', `all (${formatNumber(d.units)})`], ...d.breakdown.map((g) => [g.name, `${valueLabel(g.name)} (${formatNumber(g.units)})`] as const)]}
          onValue={onSegment}
        />
      )}
      {(() => {
        const shown = d.breakdown?.find((g) => g.name === segment);
        return <Routes graph={shown ?? d} counted={d.counted} direction={d.direction} event={event} minCount={minCount} onPick={onPick} people={shown ? undefined : people} />;
      })()}
    </>
  );
}

/** "1 actor", "2,300 sessions". */
/** What the answer counted, in the console's words: people (the API's actors) or sessions. */
const unitWord = (counted: string, n = 2): string => (counted === 'actors' ? (n === 1 ? 'person' : 'people') : n === 1 ? 'session' : 'sessions');

const unitsText = (n: number, counted: string) => `${formatNumber(n)} ${unitWord(counted, n)}`;

type Graph = Pick<QueryAnswer<'paths'>, 'units' | 'routes' | 'sankey'>;

/** One graph: units, the Sankey and the top routes (of every unit, or of one segment). */
function Routes({
  graph,
  counted,
  direction,
  event,
  minCount,
  onPick,
  people,
}: {
  graph: Graph;
  counted: string;
  direction: Direction;
  event: string;
  minCount: number;
  onPick?(item: string): void;
  people?: PeoplePicks;
}) {
  return (
    <>
      <p class="result-meta" data-testid="paths-units">
        {unitsText(graph.units, counted)} · {direction === 'after' ? 'after' : 'before'} {event}
      </p>
      <SankeyChart
        title={`Routes ${direction} ${event} of ${unitsText(graph.units, counted)}, ${graph.sankey.nodes.length} nodes`}
        nodes={graph.sankey.nodes.map((n) => (people ? peopleNode(n, direction, counted) : flowNode(n, direction, counted, event, Boolean(onPick))))}
        links={graph.sankey.links}
        onPick={(i) => (people ? people.node(i) : onPick?.(graph.sankey.nodes[i]!.item))}
        onPickLink={people?.link}
      />
      <h2>Top routes</h2>
      {graph.routes.length === 0 ? (
        <p class="muted">No route was taken by at least {unitsText(minCount, counted)}.</p>
      ) : (
        <Table label="Top routes" testId="paths-routes">
          <TableHead columns={['Rank', 'Route', counted === 'actors' ? 'People' : 'Sessions', 'Share']} />
          <tbody>
            {graph.routes.map((r, i) => (
              <tr>
                <td>{i + 1}</td>
                <th scope="row">{r.items.join(' → ')}</th>
                <td data-col="count">{formatNumber(r.count)}</td>
                <td data-col="share">{formatPercent(r.share)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

/** `canPick`: the graph anchors on a picked node; then every named node but the anchor gets an action. */
function flowNode(n: PathNode, direction: Direction, counted: string, anchor: string, canPick: boolean): FlowNode {
  const label = itemLabel(n.item, direction);
  return {
    step: n.step,
    label,
    count: n.count,
    key: n.item,
    muted: !isNamed(n.item),
    ...(canPick && isNamed(n.item) && n.item !== anchor ? { action: `Anchor on ${n.item} (${unitsText(n.count, counted)} at step ${n.step})` } : {}),
  };
}

/** A node whose button opens the people at it (any node: `Other` and the routes' ends too). */
function peopleNode(n: PathNode, direction: Direction, counted: string): FlowNode {
  const label = itemLabel(n.item, direction);
  return { step: n.step, label, count: n.count, key: n.item, muted: !isNamed(n.item), action: `People at ${label} (${unitsText(n.count, counted)} at step ${n.step})` };
}

// Paths: the routes people (or, licensed, their sessions) take after or before a selected event or
// cleaned page path, as a Sankey graph and the most frequent whole routes. A named node of the
// graph anchors the query on its item.

import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { SankeyChart, type FlowNode } from '../ui/charts/Sankey';
import { formatNumber, formatPercent, valueLabel } from '../ui/format';
import { Gated } from '../ui/Gated';
import { Empty } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useSession } from '../app/session';
import { hasFeature, lockedBy } from '../app/features';
import { ChoiceControl, ControlBar, DateRange, FilterEditor, filtersOf, Labelled, NumberControl, PropertyPicker, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight } from './insight';

type Direction = 'after' | 'before';
type PathNode = Schemas['PathResponse']['sankey']['nodes'][number];

const OTHER = '$other';
const END = '$end';

const isNamed = (item: string) => item !== OTHER && item !== END;
/** Values of a breakdown shown, the rest together as other values. */
const SEGMENTS = 5;

/** `$other` folds items past top_n; `$end` is where routes stopped (before the anchor: began). */
function itemLabel(item: string, direction: Direction): string {
  if (item === OTHER) return 'Other';
  if (item === END) return direction === 'after' ? 'Route ends' : 'Route starts';
  return item;
}

export function Paths() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const session = useSession();
  const licensed = hasFeature(session, 'actor_drilldown');
  const event = url.get('event', 'pp.page_view');
  const direction = url.get('direction', 'after') as Direction;
  const depth = Number(url.get('depth', '5'));
  const mode = url.get('mode', 'actor') as 'actor' | 'session';
  const start = url.get('start');
  const end = url.get('end');
  const minCount = Number(url.get('min_count', '1'));
  const topN = Number(url.get('top_n', '20'));
  const exclude = url.list('exclude');
  const filters = url.list('filter');
  const breakdown = url.get('breakdown');
  const segment = url.get('segment');
  // Without the license a session count would be refused: the page explains instead of asking.
  const locked = mode === 'session' && !licensed;

  const body = {
    date_from: from,
    date_to: to,
    selected_event: event,
    direction,
    depth,
    mode,
    min_count: minCount,
    top_n: topN,
    ...(direction === 'before' && start ? { start_event: start } : {}),
    ...(direction === 'after' && end ? { end_event: end } : {}),
    ...(exclude.length ? { exclude_events: exclude } : {}),
    ...(filters.length ? { filters: filtersOf(filters) } : {}),
    ...(breakdown ? { breakdown: { property: breakdown, limit: SEGMENTS } } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(
    () => (!locked ? ok(api.POST('/api/v1/projects/{id}/queries/paths', { params: { path: { id: projectId } }, body: body as never })) : Promise.resolve(undefined)),
    [projectId, key, locked],
  );
  // Cleaned page paths are not in the event catalog: the items of the last answer are offered too.
  const seen = (answer.data?.sankey.nodes ?? []).map((n) => n.item).filter(isNamed);
  const suggestions = [...new Set([...names, ...seen])];

  const controls = (
    <>
      <ControlBar>
        <EventField label="Selected event or page" value={event} names={suggestions} onValue={(v) => url.set({ event: v })} />
        <ChoiceControl label="Routes" value={direction} choices={[['after', 'after it'], ['before', 'before it']]} onValue={(v) => url.set({ direction: v, start: undefined, end: undefined })} />
        {direction === 'after' ? (
          <EventField label="End at (optional)" value={end} names={suggestions} onValue={(v) => url.set({ end: v })} />
        ) : (
          <EventField label="Start at (optional)" value={start} names={suggestions} onValue={(v) => url.set({ start: v })} />
        )}
        <NumberControl label="Steps" value={depth} min={1} max={20} onValue={(v) => url.set({ depth: v })} />
        <ModeControl mode={mode} licensed={licensed} lockedNote={lockedBy(session)} onValue={(v) => url.set({ mode: v === 'actor' ? undefined : v })} />
        <NumberControl label="Least count" value={minCount} min={1} onValue={(v) => url.set({ min_count: v })} />
        <NumberControl label="Top items" value={topN} min={1} max={100} onValue={(v) => url.set({ top_n: v })} />
        <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
        <ExcludeControl excluded={exclude} names={suggestions} onChange={(list) => url.set({ exclude: list })} />
        <PropertyPicker label="Break down by (on the selected event)" value={breakdown} keys={keys} onValue={(v) => url.set({ breakdown: v || undefined, segment: undefined })} />
        <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
      </ControlBar>
      {locked && <Gated feature="actor_drilldown">{null}</Gated>}
    </>
  );

  const anchorOn = (item: string) => url.set({ event: item, exclude: exclude.filter((x) => x !== item) });

  return (
    <InsightFrame title="Paths" project={ctx.project} controls={controls} save={{ kind: 'paths', query: body, dateRange: ctx.dates.range }} answer={locked ? undefined : answer}>
      {(d) =>
        d && (
          <>
            <PathsAnswer query={body} data={d} segment={segment} onSegment={(v) => url.set({ segment: v || undefined })} onPick={anchorOn} />
            {!licensed && <Gated feature="actor_drilldown">{null}</Gated>}
          </>
        )
      }
    </InsightFrame>
  );
}

type PathsQuery = { selected_event?: string; min_count?: number };

/**
 * The units, the graph and the top routes, as the page and a dashboard tile show them. With
 * `onSegment` a breakdown's segment can be chosen; with `onPick` a named node anchors the query.
 */
export function PathsAnswer({ query, data: d, segment = '', onSegment, onPick }: { query: PathsQuery; data: Schemas['PathResponse']; segment?: string; onSegment?(v: string): void; onPick?(item: string): void }) {
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
      <Routes graph={d.breakdown?.find((g) => g.name === segment) ?? d} counted={d.counted} direction={d.direction} event={event} minCount={minCount} onPick={onPick} />
    </>
  );
}

/** "1 actor", "2,300 sessions". */
/** What the answer counted, in the console's words: people (the API's actors) or sessions. */
const unitWord = (counted: string, n = 2): string => (counted === 'actors' ? (n === 1 ? 'person' : 'people') : n === 1 ? 'session' : 'sessions');

const unitsText = (n: number, counted: string) => `${formatNumber(n)} ${unitWord(counted, n)}`;

type Graph = Pick<Schemas['PathResponse'], 'units' | 'routes' | 'sankey'>;


/** One graph: units, the Sankey and the top routes (of every unit, or of one segment). */
function Routes({ graph, counted, direction, event, minCount, onPick }: { graph: Graph; counted: string; direction: Direction; event: string; minCount: number; onPick?(item: string): void }) {
  return (
    <>
      <p class="result-meta" data-testid="paths-units">
        {unitsText(graph.units, counted)} · {direction === 'after' ? 'after' : 'before'} {event}
      </p>
      <SankeyChart
        title={`Routes ${direction} ${event} of ${unitsText(graph.units, counted)}, ${graph.sankey.nodes.length} nodes`}
        nodes={graph.sankey.nodes.map((n) => flowNode(n, direction, counted, event, Boolean(onPick)))}
        links={graph.sankey.links}
        onPick={(i) => onPick?.(graph.sankey.nodes[i]!.item)}
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

/** An event name or page path typed freely, the catalog offered as suggestions; taken on change. */
function EventField({ label, value, names, onValue, clearOnPick }: { label: string; value: string; names: string[]; onValue(v: string): void; clearOnPick?: boolean }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  return (
    <Labelled label={label}>
      {(id) => (
        <>
          <input
            id={id}
            list={`${id}-names`}
            value={draft}
            autocomplete="off"
            onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)}
            onChange={(e) => {
              const v = (e.currentTarget as HTMLInputElement).value.trim();
              if (v === value) return;
              onValue(v);
              if (clearOnPick) setDraft('');
            }}
          />
          <datalist id={`${id}-names`}>
            {names.map((n) => (
              <option value={n} />
            ))}
          </datalist>
        </>
      )}
    </Labelled>
  );
}

/** Actors always; sessions only with the actor_drilldown license (the choice shows it is locked). */
function ModeControl({ mode, licensed, lockedNote, onValue }: { mode: string; licensed: boolean; lockedNote: string; onValue(v: string): void }) {
  return (
    <Labelled label="Count">
      {(id) => (
        <select id={id} value={mode} onChange={(e) => onValue((e.currentTarget as HTMLSelectElement).value)}>
          <option value="actor">people</option>
          <option value="session" disabled={!licensed && mode !== 'session'}>
            {licensed ? 'sessions' : `sessions (${lockedNote})`}
          </option>
        </select>
      )}
    </Labelled>
  );
}

/**
 * Events and pages left out before routes are formed: each removable, more added by name. Only a
 * name the project has (an event, or a page the graph showed) is taken: text that names nothing
 * would leave nothing out, so it is refused with a word instead of silently kept.
 */
function ExcludeControl({ excluded, names, onChange }: { excluded: string[]; names: string[]; onChange(list: string[]): void }) {
  const [unknown, setUnknown] = useState<string | undefined>();
  const add = (v: string) => {
    if (!v || excluded.includes(v)) return;
    if (!names.includes(v)) return setUnknown(v);
    setUnknown(undefined);
    onChange([...excluded, v]);
  };
  return (
    <div class="control">
      <EventField label="Leave out" value="" names={names.filter((n) => !excluded.includes(n))} clearOnPick onValue={add} />
      {unknown !== undefined && (
        <p class="problem" role="alert">
          No event or page is named “{unknown}” here; choose one from the list.
        </p>
      )}
      {excluded.length > 0 && (
        <ul class="chip-list" aria-label="Left out">
          {excluded.map((x) => (
            <li>
              <span class="chip active">{x}</span>
              <button type="button" class="link" aria-label={`Remove ${x}`} onClick={() => onChange(excluded.filter((y) => y !== x))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

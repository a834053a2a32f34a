// Paths: the routes people (or, licensed, their sessions) take after or before a selected event or
// cleaned page path, as a Sankey graph and the most frequent whole routes. A named node of the
// graph anchors the query on its item; licensed, a node or a link of the whole graph lists the
// people who passed there (and its card anchors).

import { useEffect, useState } from 'preact/hooks';
import { Gated } from '../../ui/Gated';
import { useSession } from '../../app/session';
import { hasFeature, lockedBy } from '../../app/features';
import { ChoiceControl, ControlBar, DateRange, FilterEditor, Labelled, NumberControl, PropertyPicker, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { pathsCodec, type Direction } from './codec';
import { PathsAnswer, isNamed } from './View';
import { PathsPeople, type PathsSpot } from './People';

export function Paths() {
  const ctx = useInsight(pathsCodec.defaultDays);
  const { projectId, url } = ctx;
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

  const body = pathsCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('paths', projectId, locked ? undefined : body);
  // Cleaned page paths are not in the event catalog: the items of the last answer are offered too.
  const seen = (answer.data?.sankey.nodes ?? []).map((n) => n.item).filter(isNamed);
  const suggestions = [...new Set([...names, ...seen])];

  const controls = (
    <>
      <ControlBar>
        <EventField label="Selected event or page" value={event} names={suggestions} onValue={(v) => url.set({ event: v })} />
        <ChoiceControl
          label="Routes"
          value={direction}
          choices={[
            ['after', 'after it'],
            ['before', 'before it'],
          ]}
          onValue={(v) => url.set({ direction: v, start: undefined, end: undefined })}
        />
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
  // The node or link whose people are shown, for the question it was picked in.
  const [picked, setPicked] = useState<{ asked: string; spot: PathsSpot }>();
  const asked = JSON.stringify(body);
  const spot = picked?.asked === asked ? picked.spot : undefined;
  const pick = (s: PathsSpot) => setPicked({ asked, spot: s });

  return (
    <InsightFrame title="Paths" project={ctx.project} controls={controls} save={{ kind: 'paths', query: body, dateRange: ctx.dates.range }} answer={locked ? undefined : answer}>
      {(d) =>
        d && (
          <>
            <PathsAnswer
              query={body}
              data={d}
              segment={segment}
              onSegment={(v) => url.set({ segment: v || undefined })}
              onPick={anchorOn}
              people={
                licensed
                  ? {
                      node: (i) => pick({ step: d.sankey.nodes[i]!.step, item: d.sankey.nodes[i]!.item }),
                      link: (i) => {
                        const l = d.sankey.links[i]!;
                        pick({ step: d.sankey.nodes[l.source]!.step, item: d.sankey.nodes[l.source]!.item, next_item: d.sankey.nodes[l.target]!.item });
                      },
                    }
                  : undefined
              }
            />
            {spot && <PathsPeople projectId={projectId} body={body} graph={d.sankey} direction={d.direction} spot={spot} onSpot={pick} onAnchor={anchorOn} />}
            {!licensed && <Gated feature="actor_drilldown">{null}</Gated>}
          </>
        )
      }
    </InsightFrame>
  );
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

// Funnel: ordered steps, conversion and time between them, optional breakdown, comparison with
// the previous period, revenue lost per transition, and (licensed) the people who dropped off.

import { useState } from 'preact/hooks';
import { countOf } from '../../ui/format';
import { Gated } from '../../ui/Gated';
import { ErrorNote } from '../../ui/states';
import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, PropertyPicker, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useAction } from '../../ui/useAction';
import { runQuery, useQuery } from '../useQuery';
import { funnelCodec, funnelReady, isFunnelEmpty, type FunnelBody } from './codec';
import { FunnelAnswer } from './View';
import { recordingsHref, WatchLink } from '../../replay/WatchLink';
import { PersonLink } from '../../persons/PersonLink';

export function Funnel() {
  const ctx = useInsight(funnelCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const steps = url.list('steps');
  const filters = url.list('filter');
  const breakdown = url.get('breakdown');
  const compare = url.get('compare') === 'previous';
  const countBy = url.get('count_by', 'actors') as 'actors' | 'totals';
  const windowHours = Number(url.get('window', '336'));
  const revenue = url.get('value') === 'revenue' && countBy === 'actors';
  const body = funnelCodec.toRequest(url.params, ctx.today);
  const ready = funnelReady(body);
  const answer = useQuery('funnel', projectId, ready ? body : undefined);

  // Every slot is a step, chosen or not: a new funnel starts with two empty ones.
  const slots = steps.length ? steps : ['', ''];
  const setSteps = (next: string[]) => url.set({ steps: next });
  const controls = (
    <ControlBar>
      <div class="steps">
        {slots.map((s, i) => (
          <div class="step-pick">
            <EventPicker label={`Step ${i + 1}`} value={s} names={names} onValue={(v) => setSteps(slots.map((x, j) => (j === i ? v : x)))} />
            {i > 0 && (
              <button type="button" class="link" aria-label={`Move step ${i + 1} up`} onClick={() => setSteps(swapped(slots, i - 1))}>
                Up
              </button>
            )}
            {slots.length > 2 && (
              <button type="button" class="link" aria-label={`Remove step ${i + 1}`} onClick={() => setSteps(slots.filter((_, j) => j !== i))}>
                Remove
              </button>
            )}
          </div>
        ))}
        {slots.length < 20 && (
          <button type="button" class="button secondary small" onClick={() => setSteps([...slots, ''])}>
            Add a step
          </button>
        )}
      </div>
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <ChoiceControl
        label="Conversion window"
        value={String(windowHours)}
        choices={[1, 24, 72, 168, 336, 720].map((h) => [String(h), h < 24 ? countOf(h, 'hour') : countOf(h / 24, 'day')] as const)}
        onValue={(v) => url.set({ window: v })}
      />
      <ChoiceControl
        label="Count"
        value={countBy}
        choices={[
          ['actors', 'people'],
          ['totals', 'attempts'],
        ]}
        onValue={(v) => url.set({ count_by: v })}
      />
      <PropertyPicker label="Breakdown" value={breakdown} keys={keys} onValue={(v) => url.set({ breakdown: v })} />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <label class="check control">
        <input type="checkbox" checked={revenue} disabled={countBy !== 'actors'} onChange={(e) => url.set({ value: (e.currentTarget as HTMLInputElement).checked ? 'revenue' : undefined })} /> Revenue
        lost
      </label>
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame
      title="Funnel"
      project={ctx.project}
      controls={controls}
      save={{ kind: 'funnel', query: body, dateRange: ctx.dates.range }}
      answer={answer}
      needs={ready ? undefined : 'Choose at least two steps'}
      isEmpty={(d) => !d || isFunnelEmpty(d)}
    >
      {(d) =>
        d && (
          <>
            <FunnelAnswer
              query={body}
              data={d}
              links={
                <p>
                  <a href={correlationsLink(projectId, steps[steps.length - 1]!, d.date_from, d.date_to)} data-testid="funnel-correlations">
                    What goes with reaching {steps[steps.length - 1]}?
                  </a>{' '}
                  <span class="muted">Events people did before converting, against those who did not.</span>
                </p>
              }
            />
            {countBy === 'actors' && (
              <Gated feature="actor_drilldown">
                <DroppedActors projectId={projectId} body={body} stepCount={d.steps.length} />
              </Gated>
            )}
          </>
        )
      }
    </InsightFrame>
  );
}

/** `list` with the items at `i` and `i + 1` trading places. */
const swapped = (list: string[], i: number) => list.map((x, j) => (j === i ? list[i + 1]! : j === i + 1 ? list[i]! : x));

function DroppedActors({ projectId, body, stepCount }: { projectId: number; body: FunnelBody; stepCount: number }) {
  const [step, setStep] = useState(1);
  const [pages, setPages] = useState<Array<{ actor_id: string }[]>>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const { error, run } = useAction();
  const load = (at: number, from: string | null) =>
    run(async () => {
      const d = await runQuery('funnel', projectId, { ...body, compare: undefined, breakdown: undefined, value: undefined, dropped_at_step: at, ...(from ? { dropped_cursor: from } : {}) });
      setPages((p) => (from ? [...p, d.dropped!.actors] : [d.dropped!.actors]));
      setCursor(d.dropped!.next_cursor);
    });
  return (
    <div class="card" role="group" aria-labelledby="dropped-title">
      <h2 id="dropped-title">Who dropped off</h2>
      <div class="filter-row">
        <label for="dropped-step">Reached step</label>
        <select id="dropped-step" value={String(step)} onChange={(e) => setStep(Number((e.currentTarget as HTMLSelectElement).value))}>
          {Array.from({ length: stepCount - 1 }, (_, i) => (
            <option value={String(i + 1)}>
              {i + 1}, not {i + 2}
            </option>
          ))}
        </select>
        <button type="button" class="button secondary small" onClick={() => void load(step, null)}>
          Show people
        </button>
      </div>
      <ErrorNote error={error} />
      {pages.length > 0 && (
        <ul class="actor-list" data-testid="dropped-actors">
          {pages.flat().map((a) => (
            <li>
              <PersonLink projectId={projectId} actorId={a.actor_id} /> <WatchLink href={recordingsHref(projectId, { person: a.actor_id })} label={`Watch the recordings of ${a.actor_id}`} />
            </li>
          ))}
        </ul>
      )}
      {cursor && (
        <button type="button" class="button secondary small" onClick={() => void load(step, cursor)}>
          More
        </button>
      )}
    </div>
  );
}

/** The correlations view with the funnel's last step as the conversion, over the same dates. */
function correlationsLink(projectId: number, target: string, from: string, to: string): string {
  return `/projects/${projectId}/insights/correlations?${new URLSearchParams({ target, from, to }).toString()}`;
}

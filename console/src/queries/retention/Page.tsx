// Retention: cohorts by the day (or week) of their first start event, a shaded grid of who came
// back in each later period, in three value modes; (licensed) the people of a cell.

import { recordingsHref, WatchLink } from '../../replay/WatchLink';
import { PersonLink } from '../../persons/PersonLink';
import { useState } from 'preact/hooks';
import { formatDay } from '../../ui/format';
import { Gated } from '../../ui/Gated';
import { useSession } from '../../app/session';
import { hasFeature } from '../../app/features';
import { ErrorNote } from '../../ui/states';
import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { isRetentionEmpty, retentionCodec, type RetentionAsked, type RetentionValue } from './codec';
import { RetentionAnswer } from './View';

export function Retention() {
  const ctx = useInsight(retentionCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const start = url.get('start');
  const returning = url.get('return', 'any');
  const granularity = url.get('granularity', 'day') as 'day' | 'week';
  const periods = Number(url.get('periods', granularity === 'day' ? '7' : '4'));
  const value = url.get('value', 'actors') as RetentionValue;
  const compare = url.get('compare') === 'previous';
  const filters = url.list('filter');
  const [cell, setCell] = useState<{ cohort: string; period: number }>();
  // Cells open their people only with the license for it; otherwise the grid stays plain text.
  const drilldown = hasFeature(useSession(), 'actor_drilldown');

  const body = retentionCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('retention', projectId, start ? body : undefined);

  const controls = (
    <ControlBar>
      <EventPicker label="People who did" value={start} names={names} onValue={(v) => url.set({ start: v })} />
      <EventPicker label="and came back to do" value={returning} names={names} allowAny onValue={(v) => url.set({ return: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <ChoiceControl
        label="Periods"
        value={granularity}
        choices={[
          ['day', 'days'],
          ['week', 'weeks'],
        ]}
        onValue={(v) => url.set({ granularity: v, periods: undefined })}
      />
      <div class="control">
        <label class="control-label" for="ret-periods">
          How many
        </label>
        <input id="ret-periods" type="number" min={1} max={granularity === 'day' ? 90 : 26} value={periods} onChange={(e) => url.set({ periods: (e.currentTarget as HTMLInputElement).value })} />
      </div>
      <ChoiceControl
        label="Show"
        value={value}
        choices={[
          ['actors', 'share who came back'],
          ['revenue', 'revenue per person (cumulative)'],
          ['paid_conversion', 'share who paid (cumulative)'],
        ]}
        onValue={(v) => url.set({ value: v })}
      />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame
      title="Retention"
      project={ctx.project}
      controls={controls}
      save={{ kind: 'retention', query: body, dateRange: ctx.dates.range }}
      answer={answer}
      needs={start ? undefined : 'Choose the event that starts a cohort'}
      isEmpty={(d) => !d || isRetentionEmpty(d)}
    >
      {(d) =>
        d && (
          <>
            <RetentionAnswer query={body} data={d} onCell={value === 'actors' && drilldown ? setCell : undefined} />
            {value === 'actors' && !drilldown && <Gated feature="actor_drilldown">{null}</Gated>}
            {cell && <CellActors projectId={projectId} body={body} cell={cell} />}
          </>
        )
      }
    </InsightFrame>
  );
}

function CellActors({ projectId, body, cell }: { projectId: number; body: RetentionAsked; cell: { cohort: string; period: number } }) {
  const { value: _value, compare: _compare, ...query } = body;
  const people = useQuery('retention/actors', projectId, { ...query, cohort: cell.cohort, period: cell.period });
  return (
    <div class="card" role="group" aria-labelledby="cell-title">
      <h2 id="cell-title">
        Cohort {formatDay(cell.cohort)}, period {cell.period}
      </h2>
      <ErrorNote error={people.error} />
      {people.data && people.data.items.length === 0 && <p class="muted">Nobody in this cell.</p>}
      {people.data && people.data.items.length > 0 && (
        <ul class="actor-list" data-testid="cell-actors">
          {people.data.items.map((a) => (
            <li>
              <PersonLink projectId={projectId} actorId={a.actor_id} /> <WatchLink href={recordingsHref(projectId, { person: a.actor_id })} label={`Watch the recordings of ${a.actor_id}`} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

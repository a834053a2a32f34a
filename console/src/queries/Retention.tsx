// Retention: cohorts by the day (or week) of their first start event, a shaded grid of who came
// back in each later period, in three value modes; (licensed) the people of a cell.

import { useEffect, useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { formatDay, formatMoney, formatNumber, formatPercent } from '../ui/format';
import { Gated } from '../ui/Gated';
import { useSession } from '../app/session';
import { hasFeature } from '../app/features';
import { useDrawnMark } from '../ui/charts/drawn';
import { ErrorNote } from '../ui/states';
import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight, useProjectCurrency } from './insight';
import { Table } from '../ui/Table';
import { recordingsHref, WatchLink } from '../replay/WatchLink';

type Value = 'actors' | 'revenue' | 'paid_conversion';

/** Cohorts drawn before the first paint: more than a screen holds. */
const FIRST_ROWS = 16;

function formatRetentionValue(value: number | null, mode: Value, currency: string | undefined): string {
  if (value === null) return '';
  return mode === 'revenue' ? formatMoney(value, currency) : formatPercent(value);
}

/**
 * Shade of a cell, one of ten steps from white to a light accent by its share of the grid's
 * largest value: a class, not an inline style, because a 90-day grid has eight thousand cells.
 * The text stays ink on every step (at least 6:1).
 */
function shade(value: number | null, max: number): string {
  if (value === null || max <= 0) return 'cell';
  return `cell shade-${Math.round(Math.max(0, Math.min(1, value / max)) * 9)}`;
}

export function Retention() {
  const ctx = useInsight(14);
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const start = url.get('start');
  const returning = url.get('return', 'any');
  const granularity = url.get('granularity', 'day') as 'day' | 'week';
  const periods = Number(url.get('periods', granularity === 'day' ? '7' : '4'));
  const value = url.get('value', 'actors') as Value;
  const compare = url.get('compare') === 'previous';
  const filters = url.list('filter');
  const [cell, setCell] = useState<{ cohort: string; period: number }>();
  // Cells open their people only with the license for it; otherwise the grid stays plain text.
  const drilldown = hasFeature(useSession(), 'actor_drilldown');

  const body = {
    start_event: start,
    return_event: returning,
    granularity,
    periods,
    value,
    date_from: from,
    date_to: to,
    ...(filters.length ? { filters: filtersOf(filters) } : {}),
    ...(compare ? { compare: { period: 'previous' as const } } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(() => (start ? ok(api.POST('/api/v1/projects/{id}/queries/retention', { params: { path: { id: projectId } }, body: body as never })) : Promise.resolve(undefined)), [projectId, key]);

  const controls = (
    <ControlBar>
      <EventPicker label="People who did" value={start} names={names} onValue={(v) => url.set({ start: v })} />
      <EventPicker label="and came back to do" value={returning} names={names} allowAny onValue={(v) => url.set({ return: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <ChoiceControl label="Periods" value={granularity} choices={[['day', 'days'], ['week', 'weeks']]} onValue={(v) => url.set({ granularity: v, periods: undefined })} />
      <div class="control">
        <label class="control-label" for="ret-periods">
          How many
        </label>
        <input id="ret-periods" type="number" min={1} max={granularity === 'day' ? 90 : 26} value={periods} onChange={(e) => url.set({ periods: (e.currentTarget as HTMLInputElement).value })} />
      </div>
      <ChoiceControl label="Show" value={value} choices={[['actors', 'share who came back'], ['revenue', 'revenue per person (cumulative)'], ['paid_conversion', 'share who paid (cumulative)']]} onValue={(v) => url.set({ value: v })} />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame title="Retention" project={ctx.project} controls={controls} save={{ kind: 'retention', query: body, dateRange: ctx.dates.range }} answer={answer} needs={start ? undefined : 'Choose the event that starts a cohort'} isEmpty={(d) => !d || isRetentionEmpty(d)}>
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

type RetentionQuery = { granularity?: 'day' | 'week'; periods?: number; value?: Value };

export const isRetentionEmpty = (d: Schemas['RetentionResponse']) => d.cohorts.every((c) => c.size === 0);

/** The retention grid (and the previous period's) as the page and a dashboard tile show it; `onCell` opens a cell's people. */
export function RetentionAnswer({ query, data: d, onCell }: { query: RetentionQuery; data: Schemas['RetentionResponse']; onCell?(cell: { cohort: string; period: number }): void }) {
  const granularity = query.granularity ?? 'day';
  const periods = query.periods ?? (granularity === 'day' ? 7 : 4);
  const value = query.value ?? 'actors';
  return (
    <>
      <RetentionGrid result={d} periods={periods} granularity={granularity} value={value} onCell={onCell} testId="retention-grid" />
      {d.compare && (
        <>
          <h2>
            Previous period ({d.compare.date_from} to {d.compare.date_to})
          </h2>
          <RetentionGrid result={d.compare} periods={periods} granularity={granularity} value={value} testId="retention-compare" />
        </>
      )}
    </>
  );
}

function RetentionGrid({
  result,
  periods,
  granularity,
  value,
  onCell,
  testId,
}: {
  result: Schemas['RetentionResult'];
  periods: number;
  granularity: 'day' | 'week';
  value: Value;
  onCell?(cell: { cohort: string; period: number }): void;
  testId: string;
}) {
  // The rows of the first screen first; the rest in the next task, so a 90-day grid appears at once.
  const [rows, setRows] = useState(FIRST_ROWS);
  useEffect(() => {
    setRows(FIRST_ROWS);
    if (result.cohorts.length <= FIRST_ROWS) return;
    const later = setTimeout(() => setRows(result.cohorts.length), 0);
    return () => clearTimeout(later);
  }, [result]);
  useDrawnMark([result]);
  const currency = useProjectCurrency();
  const max = Math.max(0, ...result.cohorts.flatMap((c) => c.values.slice(value === 'actors' ? 1 : 0).map((v) => v ?? 0)));
  return (
    <Table label="Retention grid" class="retention" testId={testId}>
      <thead>
        <tr>
          <th scope="col">Cohort</th>
          <th scope="col">People</th>
          {Array.from({ length: periods + 1 }, (_, p) => (
            <th scope="col">
              {granularity === 'day' ? 'Day' : 'Week'} {p}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {result.cohorts.slice(0, rows).map((c) => (
          <tr>
            <th scope="row" data-cohort={c.cohort}>
              {formatDay(c.cohort)}
            </th>
            <td>{formatNumber(c.size)}</td>
            {c.values.map((v, p) => {
              const text = formatRetentionValue(v, value, currency);
              const title = value === 'actors' && c.counts?.[p] != null ? `${c.counts[p]} of ${c.size}` : undefined;
              return (
                <td class={shade(v, p === 0 && value === 'actors' ? 1 : max)} title={title} data-value={v ?? ''}>
                  {onCell && v !== null && c.size > 0 ? (
                    <button type="button" class="cell-button" onClick={() => onCell({ cohort: c.cohort, period: p })}>
                      {text}
                    </button>
                  ) : (
                    text
                  )}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function CellActors({ projectId, body, cell }: { projectId: number; body: Record<string, unknown>; cell: { cohort: string; period: number } }) {
  const { value: _value, compare: _compare, ...query } = body;
  const people = useAsync(
    () =>
      ok(
        api.POST('/api/v1/projects/{id}/queries/retention/actors', {
          params: { path: { id: projectId } },
          body: { ...query, cohort: cell.cohort, period: cell.period } as never,
        }),
      ),
    [projectId, JSON.stringify(query), cell.cohort, cell.period],
  );
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
              <code>{a.actor_id}</code> <WatchLink href={recordingsHref(projectId, { person: a.actor_id })} label={`Watch the recordings of ${a.actor_id}`} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

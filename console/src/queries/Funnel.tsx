// Funnel: ordered steps, conversion and time between them, optional breakdown, comparison with
// the previous period, revenue lost per transition, and (licensed) the people who dropped off.

import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { FunnelChart } from '../ui/charts/FunnelChart';
import { countOf, formatDuration, formatMoney, formatNumber, formatPercent, valueLabel } from '../ui/format';
import { Gated } from '../ui/Gated';
import { ErrorNote } from '../ui/states';
import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, PropertyPicker, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight, useProjectCurrency } from './insight';
import { useAction } from '../ui/useAction';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { recordingsHref, WatchLink } from '../replay/WatchLink';

export function Funnel() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const steps = url.list('steps');
  const filters = url.list('filter');
  const breakdown = url.get('breakdown');
  const compare = url.get('compare') === 'previous';
  const countBy = url.get('count_by', 'actors') as 'actors' | 'totals';
  const windowHours = Number(url.get('window', '336'));
  const revenue = url.get('value') === 'revenue' && countBy === 'actors';
  const ready = steps.length >= 2 && steps.every(Boolean);

  const body = {
    steps: steps.map((event, i) => ({ event, ...(i === 0 && filters.length ? { filters: filtersOf(filters) } : {}) })),
    date_from: from,
    date_to: to,
    window_hours: windowHours,
    count_by: countBy,
    ...(breakdown ? { breakdown: { property: breakdown } } : {}),
    ...(compare ? { compare: { period: 'previous' as const } } : {}),
    ...(revenue ? { value: 'revenue' as const } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(() => (ready ? ok(api.POST('/api/v1/projects/{id}/queries/funnel', { params: { path: { id: projectId } }, body: body as never })) : Promise.resolve(undefined)), [projectId, key]);

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
      <ChoiceControl label="Conversion window" value={String(windowHours)} choices={[1, 24, 72, 168, 336, 720].map((h) => [String(h), h < 24 ? countOf(h, 'hour') : countOf(h / 24, 'day')] as const)} onValue={(v) => url.set({ window: v })} />
      <ChoiceControl label="Count" value={countBy} choices={[['actors', 'people'], ['totals', 'attempts']]} onValue={(v) => url.set({ count_by: v })} />
      <PropertyPicker label="Breakdown" value={breakdown} keys={keys} onValue={(v) => url.set({ breakdown: v })} />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <label class="check control">
        <input type="checkbox" checked={revenue} disabled={countBy !== 'actors'} onChange={(e) => url.set({ value: (e.currentTarget as HTMLInputElement).checked ? 'revenue' : undefined })} /> Revenue lost
      </label>
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame title="Funnel" project={ctx.project} controls={controls} save={{ kind: 'funnel', query: body, dateRange: ctx.dates.range }} answer={answer} needs={ready ? undefined : 'Choose at least two steps'} isEmpty={(d) => !d || isFunnelEmpty(d)}>
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

type FunnelQuery = { count_by?: 'actors' | 'totals'; breakdown?: { property: string } };

export const isFunnelEmpty = (d: Schemas['FunnelResponse']) => d.steps[0]!.count === 0;

/** A funnel's answer as the page and a dashboard tile show it: conversion, the steps' table, breakdown and revenue lost. */
export function FunnelAnswer({ query, data: d, links }: { query: FunnelQuery; data: Schemas['FunnelResponse']; links?: ComponentChildren }) {
  const countBy = query.count_by ?? 'actors';
  const breakdown = query.breakdown?.property;
  const currency = useProjectCurrency();
  return (
    <>
      <p class="result-meta">
        {d.date_from} to {d.date_to} · {countBy === 'actors' ? 'people' : 'attempts'} · {formatPercent(d.steps[d.steps.length - 1]!.conversion_rate)} converted overall
      </p>
      <FunnelChart
        title="Funnel conversion by step"
        steps={d.steps.map((s) => ({ label: s.label, count: s.count, conversion: s.conversion_rate, stepConversion: s.step_conversion_rate, medianSeconds: s.median_seconds_from_previous }))}
        compare={d.compare?.steps.map((s) => ({ label: s.label, count: s.count, conversion: s.conversion_rate, stepConversion: s.step_conversion_rate, medianSeconds: s.median_seconds_from_previous }))}
      />
      {links}
      <Table label="Funnel steps" testId="funnel-table">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">{countBy === 'actors' ? 'People' : 'Attempts'}</th>
            <th scope="col">Of step 1</th>
            <th scope="col">Of previous</th>
            <th scope="col">Median time</th>
            <th scope="col">Mean time</th>
            {d.compare && <th scope="col">Previous period</th>}
          </tr>
        </thead>
        <tbody>
          {d.steps.map((s, i) => (
            <tr>
              <th scope="row">
                {i + 1}. {s.label}
              </th>
              <td data-col="count">{formatNumber(s.count)}</td>
              <td>{formatPercent(s.conversion_rate)}</td>
              <td>{i === 0 ? '—' : formatPercent(s.step_conversion_rate)}</td>
              <td>{s.median_seconds_from_previous === null ? '—' : formatDuration(s.median_seconds_from_previous)}</td>
              <td>{s.mean_seconds_from_previous === null ? '—' : formatDuration(s.mean_seconds_from_previous)}</td>
              {d.compare && <td>{formatNumber(d.compare.steps[i]?.count)}</td>}
            </tr>
          ))}
        </tbody>
      </Table>
      {d.breakdown && d.breakdown.length > 0 && (
        <>
          <h2>By {breakdown}</h2>
          <Table label="Funnel by breakdown" testId="funnel-breakdown">
            <thead>
              <tr>
                <th scope="col">{breakdown}</th>
                {d.steps.map((s, i) => (
                  <th scope="col">
                    {i + 1}. {s.label}
                  </th>
                ))}
                <th scope="col">Converted</th>
              </tr>
            </thead>
            <tbody>
              {d.breakdown.map((b) => (
                <tr>
                  <th scope="row">{valueLabel(b.name)}</th>
                  {b.steps.map((s) => (
                    <td>{formatNumber(s.count)}</td>
                  ))}
                  <td>{formatPercent(b.steps[b.steps.length - 1]?.conversion_rate)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
      {d.revenue && (
        <>
          <h2>Revenue lost between steps</h2>
          <p class="result-meta">{formatMoney(d.revenue.revenue_per_converting_actor, currency)} per converting person over the range</p>
          <Table label="Revenue lost between steps" testId="funnel-revenue">
            <TableHead columns={['Transition', 'Dropped', 'Estimated loss per month']} />
            <tbody>
              {d.revenue.transitions.map((tr) => (
                <tr>
                  <th scope="row">
                    {tr.from_step} → {tr.to_step}
                  </th>
                  <td>{formatNumber(tr.dropped)}</td>
                  <td>{formatMoney(tr.estimated_monthly_loss, currency)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        </>
      )}
    </>
  );
}

function DroppedActors({ projectId, body, stepCount }: { projectId: number; body: Record<string, unknown>; stepCount: number }) {
  const [step, setStep] = useState(1);
  const [pages, setPages] = useState<Array<{ actor_id: string }[]>>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const { error, run } = useAction();
  const load = (at: number, from: string | null) =>
    run(async () => {
      const d = await ok(
        api.POST('/api/v1/projects/{id}/queries/funnel', {
          params: { path: { id: projectId } },
          body: { ...body, compare: undefined, breakdown: undefined, value: undefined, dropped_at_step: at, ...(from ? { dropped_cursor: from } : {}) } as never,
        }),
      );
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
            <option value={String(i + 1)}>{i + 1}, not {i + 2}</option>
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
              <code>{a.actor_id}</code> <WatchLink href={recordingsHref(projectId, { person: a.actor_id })} label={`Watch the recordings of ${a.actor_id}`} />
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

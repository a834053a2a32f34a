// Activation drivers: early behaviors ("did X at least k times within w days of the anchor") that go
// with being retained later. The page states the split (discovery picks, validation judges), the
// actors left out because their outcome window is still open, and the non-causality warning.

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { ControlBar, DateRange, EventPicker, FilterEditor, NumberControl, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight } from './insight';

const signed = (x: number | null) => (x === null ? '—' : x.toFixed(2));

export function ActivationDrivers() {
  const ctx = useInsight(60);
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const anchor = url.get('anchor');
  const outcome = url.get('outcome');
  const fromDay = Number(url.get('from_day', '7'));
  const toDay = Number(url.get('to_day', '28'));
  const filters = url.list('filter');
  const ready = Boolean(anchor && outcome);
  const body = {
    date_from: from,
    date_to: to,
    anchor_event: anchor,
    outcome: { event: outcome, from_day: fromDay, to_day: toDay },
    ...(filters.length ? { filters: filtersOf(filters) } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(
    () => (ready ? ok(api.POST('/api/v1/projects/{id}/queries/activation-drivers', { params: { path: { id: projectId } }, body: body as never })) : Promise.resolve(undefined)),
    [projectId, key],
  );
  const controls = (
    <ControlBar>
      <EventPicker label="Starting with (anchor)" value={anchor} names={names} onValue={(v) => url.set({ anchor: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <EventPicker label="Retained if they did" value={outcome} names={names} onValue={(v) => url.set({ outcome: v })} />
      <NumberControl label="From day" value={fromDay} min={1} max={400} onValue={(v) => url.set({ from_day: v })} />
      <NumberControl label="Until day" value={toDay} min={2} max={401} onValue={(v) => url.set({ to_day: v })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );
  return (
    <InsightFrame
      title="Activation drivers"
      project={ctx.project}
      controls={controls}
      save={{ kind: 'activation-drivers', query: body, dateRange: ctx.dates.range }}
      answer={answer}
      needs={ready ? undefined : 'Choose the anchor event and the event that counts as retained'}
      isEmpty={(d) => !d || isActivationDriversEmpty(d)}
    >
      {(d) => d && <ActivationDriversAnswer data={d} />}
    </InsightFrame>
  );
}

export const isActivationDriversEmpty = (d: Schemas['ActivationDriversResponse']) => d.anchored === 0;

/** The warning, who could be judged, the split and the drivers, as the page and a dashboard tile show them. */
export function ActivationDriversAnswer({ data: d }: { data: Schemas['ActivationDriversResponse'] }) {
  return (
    <>
      <p class="notice" role="note" data-testid="drivers-warning">
        {d.warning}
      </p>
      <p class="result-meta" data-testid="drivers-population">
        {formatNumber(d.eligible)} people whose outcome window had closed by {d.as_of.slice(0, 16).replace('T', ' ')} UTC, {formatNumber(d.retained)} retained (
        {formatPercent(d.retention_rate)}); {formatNumber(d.immature)} more are too recent to judge and are left out.
      </p>
      <p class="muted" data-testid="drivers-split">
        Each behavior is chosen on {formatNumber(d.split.discovery_actors)} people ({formatPercent(d.split.discovery_share, 0)}) and judged once on the other{' '}
        {formatNumber(d.split.validation_actors)} ({formatPercent(d.split.validation_share, 0)}), split by {d.split.method}. Windows tried: {d.windows_days.join(', ')} days.
      </p>
      {d.drivers.length === 0 ? (
        <p class="muted">No behavior had at least five people on each side of a threshold among the people it is chosen on.</p>
      ) : (
        <Table label="Activation drivers" testId="drivers-table">
          <TableHead columns={['Behavior', 'Found on discovery (φ)', 'Validation φ (95% interval)', 'Retained if done', 'Retained if not', 'People who did it', 'Validated', 'Strength']} />
          <tbody>
            {d.drivers.map((x) => (
              <tr>
                <th scope="row">
                  {x.event} ≥ {x.threshold}× in {x.window_days} {x.window_days === 1 ? 'day' : 'days'}
                </th>
                <td>{signed(x.discovery.phi)}</td>
                <td>
                  {signed(x.validation.phi)} ({signed(x.validation.phi_low)} to {signed(x.validation.phi_high)})
                </td>
                <td>{formatPercent(x.validation.retention_above)}</td>
                <td>{formatPercent(x.validation.retention_below)}</td>
                <td>{formatNumber(x.validation.support)}</td>
                <td>{x.validated ? 'yes' : 'no'}</td>
                <td>
                  {x.band}
                  {x.direction === 'negative' ? ' (goes with leaving)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

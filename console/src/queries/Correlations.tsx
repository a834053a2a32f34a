// Correlations: the events that go with reaching a target event, ranked by lift, with the 2×2
// counts behind each number, the odds ratio's interval and the false-discovery-adjusted q value.
// The warning that these are associations stays in view above the table. A funnel links here with
// its last step as the target.

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { formatDuration, formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { ControlBar, DateRange, EventPicker, FilterEditor, NumberControl, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight } from './insight';

const ratio = (x: number | null) => (x === null ? '—' : x.toFixed(2));
/** p and q values: small ones in scientific notation, never rounded to a misleading zero. */
const probability = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));

export function Correlations() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const target = url.get('target');
  const minN = Number(url.get('min_n', '5'));
  const managed = url.get('managed') === 'include';
  const filters = url.list('filter');
  const body = {
    target_event: target,
    date_from: from,
    date_to: to,
    min_n: minN,
    exclude_managed: !managed,
    ...(filters.length ? { filters: filtersOf(filters) } : {}),
  };
  const key = JSON.stringify(body);
  const answer = useAsync(
    () => (target ? ok(api.POST('/api/v1/projects/{id}/queries/correlations', { params: { path: { id: projectId } }, body: body as never })) : Promise.resolve(undefined)),
    [projectId, key],
  );
  const controls = (
    <ControlBar>
      <EventPicker label="Converted when they did" value={target} names={names} onValue={(v) => url.set({ target: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <NumberControl label="At least this many people" value={minN} min={1} onValue={(v) => url.set({ min_n: v })} />
      <label class="check control">
        <input type="checkbox" checked={managed} onChange={(e) => url.set({ managed: (e.currentTarget as HTMLInputElement).checked ? 'include' : undefined })} /> Include autocapture
      </label>
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );
  return (
    <InsightFrame title="Correlations" project={ctx.project} controls={controls} save={{ kind: 'correlations', query: body, dateRange: ctx.dates.range }} answer={answer} needs={target ? undefined : 'Choose the event that counts as converting'} isEmpty={(d) => !d || isCorrelationsEmpty(d)}>
      {(d) => d && <CorrelationsAnswer query={body} data={d} />}
    </InsightFrame>
  );
}

export const isCorrelationsEmpty = (d: Schemas['CorrelationsResponse']) => d.actors === 0;

/** The warning, the population and the ranked events, as the page and a dashboard tile show them. */
export function CorrelationsAnswer({ query, data: d }: { query: { min_n?: number }; data: Schemas['CorrelationsResponse'] }) {
  const minN = query.min_n ?? 5;
  return (
    <>
      <p class="notice" role="note" data-testid="correlations-warning">
        {d.warning}
      </p>
      <p class="result-meta" data-testid="correlations-population">
        {formatNumber(d.converters)} of {formatNumber(d.actors)} people converted ({formatPercent(d.conversion_rate)}) · {d.date_from} to {d.date_to}
        {d.observation_seconds !== null && <> · people who did not convert are observed for {formatDuration(d.observation_seconds)} from their first event, the median time to convert</>}
      </p>
      {d.skewed && (
        <p class="notice" role="note">
          Converters and non-converters differ by more than 10 to 1: the figures below rest on few people on one side.
        </p>
      )}
      {d.candidates.length === 0 ? (
        <p class="muted">No event was done by at least {formatNumber(minN)} people before converting (or in the same time, for the others).</p>
      ) : (
        <Table label="Correlated events" testId="correlations-table">
          <TableHead columns={['Event', 'People who did it', 'Converted, did it', 'Converted, did not', 'Lift', 'Odds ratio (95% interval)', 'q value']} />
          <tbody>
            {d.candidates.map((c) => (
              <tr>
                <th scope="row">{c.event}</th>
                <td data-col="actors">{formatNumber(c.actors)}</td>
                <td data-col="with">{formatPercent(c.conversion_with)}</td>
                <td data-col="without">{formatPercent(c.conversion_without)}</td>
                <td data-col="lift">{ratio(c.lift)}</td>
                <td data-col="odds">
                  {ratio(c.odds_ratio)} ({ratio(c.odds_ratio_low)}–{ratio(c.odds_ratio_high)})
                </td>
                <td data-col="q" title={`p ${probability(c.p_value)}`}>
                  {probability(c.q_value)}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <p class="muted">
        {formatNumber(d.candidates_tested)} events tested; q is the share of false findings expected if every event up to this one were taken as real (Benjamini–Hochberg).
      </p>
    </>
  );
}

// Correlations' ranked events as its page and a dashboard tile show them.

import { formatDuration, formatNumber, formatPercent } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { Table } from '../../ui/Table';
import type { QueryAnswer } from '../queryTypes';

const ratio = (x: number | null) => (x === null ? '—' : x.toFixed(2));
/** p and q values: small ones in scientific notation, never rounded to a misleading zero. */
const probability = (x: number) => (x < 0.001 ? x.toExponential(1) : x.toFixed(3));

/** The warning, the population and the ranked events, as the page and a dashboard tile show them. */
export function CorrelationsAnswer({ query, data: d }: { query: { min_n?: number }; data: QueryAnswer<'correlations'> }) {
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
      <p class="muted">{formatNumber(d.candidates_tested)} events tested; q is the share of false findings expected if every event up to this one were taken as real (Benjamini–Hochberg).</p>
    </>
  );
}

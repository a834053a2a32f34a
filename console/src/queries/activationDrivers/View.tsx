// Activation drivers as its page and a dashboard tile show them.

import { formatNumber, formatPercent } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { Table } from '../../ui/Table';
import type { QueryAnswer } from '../queryTypes';

const signed = (x: number | null) => (x === null ? '—' : x.toFixed(2));

/** The warning, who could be judged, the split and the drivers, as the page and a dashboard tile show them. */
export function ActivationDriversAnswer({ data: d }: { data: QueryAnswer<'activation-drivers'> }) {
  return (
    <>
      <p class="notice" role="note" data-testid="drivers-warning">
        {d.warning}
      </p>
      <p class="result-meta" data-testid="drivers-population">
        {formatNumber(d.eligible)} people whose outcome window had closed by {d.as_of.slice(0, 16).replace('T', ' ')} UTC, {formatNumber(d.retained)} retained ({formatPercent(d.retention_rate)});{' '}
        {formatNumber(d.immature)} more are too recent to judge and are left out.
      </p>
      <p class="muted" data-testid="drivers-split">
        Each behavior is chosen on {formatNumber(d.split.discovery_actors)} people ({formatPercent(d.split.discovery_share, 0)}) and judged once on the other {formatNumber(d.split.validation_actors)}{' '}
        ({formatPercent(d.split.validation_share, 0)}), split by {d.split.method}. Windows tried: {d.windows_days.join(', ')} days.
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

// Stickiness as its page and a dashboard tile show it.

import { BarChart } from '../../ui/charts/BarChart';
import { formatNumber } from '../../ui/format';
import { TableHead } from '../../ui/TableHead';
import { Table } from '../../ui/Table';
import type { QueryAnswer } from '../queryTypes';

/** People by their number of active days, as the page and a dashboard tile show them. */
export function StickinessAnswer({ data: d }: { data: QueryAnswer<'stickiness'> }) {
  return (
    <>
      <BarChart title="People by number of active days" bars={d.distribution.map((x) => ({ label: String(x.days), value: x.actors }))} />
      <Table label="Stickiness numbers" testId="stickiness-table">
        <TableHead columns={['Days active', 'People']} />
        <tbody>
          {d.distribution.map((x) => (
            <tr>
              <th scope="row">{x.days}</th>
              <td>{formatNumber(x.actors)}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </>
  );
}

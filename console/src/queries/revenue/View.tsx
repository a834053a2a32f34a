// The revenue summary's figures as its page and a dashboard tile show them.

import { formatMoney, formatNumber } from '../../ui/format';
import type { QueryAnswer } from '../queryTypes';
import { Tile } from '../Tile';

/** The revenue summary's figures as tiles, as the page and a dashboard tile show them. */
export function RevenueAnswer({ data: d }: { data: QueryAnswer<'revenue-summary'> }) {
  const money = (n: number | null) => formatMoney(n, d.currency);
  return (
    <div class="tiles" data-testid="revenue-tiles">
      <Tile label="Revenue" value={money(d.revenue)} name="revenue" />
      <Tile label="Paying people" value={formatNumber(d.paying_actors)} name="paying_actors" />
      <Tile label="Active people" value={formatNumber(d.active_actors)} name="active_actors" />
      <Tile label="ARPU" value={money(d.arpu)} name="arpu" />
      <Tile label="ARPPU" value={money(d.arppu)} name="arppu" />
      <Tile label="Refunds" value={`${money(d.refunds)} (${formatNumber(d.refund_count)})`} name="refunds" />
    </div>
  );
}

// The activity summary's figures as its page and a dashboard tile show them.

import { formatNumber, formatPercent } from '../../ui/format';
import type { QueryAnswer } from '../queryTypes';
import { Tile } from '../Tile';

/** DAU, WAU, MAU and how sticky the product is, as tiles: the page's and a dashboard tile's. */
export function ActivityAnswer({ data: s }: { data: QueryAnswer<'activity-summary'> }) {
  return (
    <div class="tiles" data-testid="activity-tiles">
      <Tile label="Daily active" value={formatNumber(s.dau)} name="dau" />
      <Tile label="Weekly active" value={formatNumber(s.wau)} name="wau" />
      <Tile label="Monthly active" value={formatNumber(s.mau)} name="mau" />
      <Tile label="DAU / MAU" value={formatPercent(s.dau_mau)} name="dau_mau" />
      <Tile label="Active on 2+ days" value={formatPercent(s.repeat_activity)} name="repeat_activity" />
      <Tile label="Active days per person" value={s.usage_frequency === null ? '—' : s.usage_frequency.toFixed(1)} name="usage_frequency" />
    </div>
  );
}

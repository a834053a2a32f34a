// Lifecycle: each period's active people split into new, returning and resurrecting (above zero)
// and those who went dormant (below zero).

import { ChoiceControl, ControlBar, DateRange, FilterEditor, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { isLifecycleEmpty, lifecycleCodec } from './codec';
import { LifecycleAnswer } from './View';

export function Lifecycle() {
  const ctx = useInsight(lifecycleCodec.defaultDays);
  const { projectId, url } = ctx;
  const keys = usePropertyKeys(projectId);
  const interval = url.get('interval', 'day') as 'day' | 'week';
  const filters = url.list('filter');
  const body = lifecycleCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('lifecycle', projectId, body);
  const controls = (
    <ControlBar>
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <ChoiceControl
        label="Per"
        value={interval}
        choices={[
          ['day', 'day'],
          ['week', 'week'],
        ]}
        onValue={(v) => url.set({ interval: v })}
      />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );
  return (
    <InsightFrame title="Lifecycle" project={ctx.project} controls={controls} save={{ kind: 'lifecycle', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isLifecycleEmpty}>
      {(d) => <LifecycleAnswer query={body} data={d} />}
    </InsightFrame>
  );
}

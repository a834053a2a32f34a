// Correlations: the events that go with reaching a target event, ranked by lift, with the 2×2
// counts behind each number, the odds ratio's interval and the false-discovery-adjusted q value.
// The warning that these are associations stays in view above the table. A funnel links here with
// its last step as the target.

import { ControlBar, DateRange, EventPicker, FilterEditor, NumberControl, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { correlationsCodec, isCorrelationsEmpty } from './codec';
import { CorrelationsAnswer } from './View';

export function Correlations() {
  const ctx = useInsight(correlationsCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const target = url.get('target');
  const minN = Number(url.get('min_n', '5'));
  const managed = url.get('managed') === 'include';
  const filters = url.list('filter');
  const body = correlationsCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('correlations', projectId, target ? body : undefined);
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
    <InsightFrame
      title="Correlations"
      project={ctx.project}
      controls={controls}
      save={{ kind: 'correlations', query: body, dateRange: ctx.dates.range }}
      answer={answer}
      needs={target ? undefined : 'Choose the event that counts as converting'}
      isEmpty={(d) => !d || isCorrelationsEmpty(d)}
    >
      {(d) => d && <CorrelationsAnswer query={body} data={d} />}
    </InsightFrame>
  );
}

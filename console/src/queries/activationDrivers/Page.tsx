// Activation drivers: early behaviors ("did X at least k times within w days of the anchor") that go
// with being retained later. The page states the split (discovery picks, validation judges), the
// actors left out because their outcome window is still open, and the non-causality warning.

import { ControlBar, DateRange, EventPicker, FilterEditor, NumberControl, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { activationDriversCodec, isActivationDriversEmpty } from './codec';
import { ActivationDriversAnswer } from './View';

export function ActivationDrivers() {
  const ctx = useInsight(activationDriversCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const anchor = url.get('anchor');
  const outcome = url.get('outcome');
  const fromDay = Number(url.get('from_day', '7'));
  const toDay = Number(url.get('to_day', '28'));
  const filters = url.list('filter');
  const ready = Boolean(anchor && outcome);
  const body = activationDriversCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('activation-drivers', projectId, ready ? body : undefined);
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

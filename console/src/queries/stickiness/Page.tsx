// Stickiness: how many people did the event on exactly 1, 2, … days of the range.

import { ControlBar, DateRange, EventPicker, FilterEditor, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight } from '../insight';
import { useQuery } from '../useQuery';
import { isStickinessEmpty, stickinessCodec } from './codec';
import { StickinessAnswer } from './View';

export function Stickiness() {
  const ctx = useInsight(stickinessCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const event = url.get('event', 'any');
  const filters = url.list('filter');
  const body = stickinessCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('stickiness', projectId, body);
  const controls = (
    <ControlBar>
      <EventPicker label="Event" value={event} names={names} allowAny onValue={(v) => url.set({ event: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );
  return (
    <InsightFrame title="Stickiness" project={ctx.project} controls={controls} save={{ kind: 'stickiness', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isStickinessEmpty}>
      {(d) => <StickinessAnswer data={d} />}
    </InsightFrame>
  );
}

// Segmentation: one event (or any) over time, as a line or bars, counted four ways (events,
// unique people, revenue, revenue per event), grouped by a property, compared with the period
// before.

import { ChoiceControl, CompareToggle, ControlBar, DateRange, EventPicker, FilterEditor, PropertyPicker, useEventNames, usePropertyKeys } from '../controls/Controls';
import { InsightFrame, useInsight, useProjectCurrency } from '../insight';
import { useQuery } from '../useQuery';
import { isSegmentationEmpty, segmentationCodec, type Metric } from './codec';
import { SegmentationAnswer } from './View';

/** The measures as the picker names them, money in the project's currency when it is known. */
function metricChoices(currency: string | undefined): ReadonlyArray<readonly [Metric, string]> {
  const inCurrency = currency ? ` (${currency})` : '';
  return [
    ['events', 'events'],
    ['uniques', 'unique people'],
    ['revenue', `revenue${inCurrency}`],
    ['revenue_avg', `revenue per event${inCurrency}`],
  ];
}

export function Segmentation() {
  const ctx = useInsight(segmentationCodec.defaultDays);
  const { projectId, url } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const event = url.get('event', 'any');
  const metric = url.get('metric', 'events') as Metric;
  const currency = useProjectCurrency();
  const interval = url.get('interval', 'day') as 'hour' | 'day' | 'week' | 'month';
  const groupBy = url.get('group_by');
  const compare = url.get('compare') === 'previous';
  const chart = url.get('chart', 'line');
  const filters = url.list('filter');

  const body = segmentationCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('segmentation', projectId, body);

  const controls = (
    <ControlBar>
      <EventPicker label="Event" value={event} names={names} allowAny onValue={(v) => url.set({ event: v })} />
      <ChoiceControl label="Measure" value={metric} choices={metricChoices(currency)} onValue={(v) => url.set({ metric: v })} />
      <ChoiceControl label="Per" value={interval} choices={['hour', 'day', 'week', 'month'].map((i) => [i, i] as const)} onValue={(v) => url.set({ interval: v })} />
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <PropertyPicker label="Group by" value={groupBy} keys={keys} onValue={(v) => url.set({ group_by: v })} />
      <ChoiceControl
        label="Chart"
        value={chart}
        choices={[
          ['line', 'line'],
          ['bar', 'bars'],
        ]}
        onValue={(v) => url.set({ chart: v })}
      />
      <CompareToggle on={compare} onValue={(on) => url.set({ compare: on ? 'previous' : undefined })} />
      <FilterEditor projectId={projectId} filters={filters} keys={keys} onChange={(f) => url.set({ filter: f })} />
    </ControlBar>
  );

  return (
    <InsightFrame title="Segmentation" project={ctx.project} controls={controls} save={{ kind: 'segmentation', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isSegmentationEmpty}>
      {(d) => <SegmentationAnswer query={body} data={d} chart={chart === 'bar' ? 'bar' : 'line'} />}
    </InsightFrame>
  );
}

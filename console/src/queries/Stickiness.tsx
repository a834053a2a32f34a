// Stickiness: how many people did the event on exactly 1, 2, … days of the range.

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { BarChart } from '../ui/charts/BarChart';
import { formatNumber } from '../ui/format';
import { ControlBar, DateRange, EventPicker, FilterEditor, filtersOf, useEventNames, usePropertyKeys } from './controls/Controls';
import { InsightFrame, useInsight } from './insight';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

export function Stickiness() {
  const ctx = useInsight();
  const { projectId, url, from, to } = ctx;
  const names = useEventNames(projectId);
  const keys = usePropertyKeys(projectId);
  const event = url.get('event', 'any');
  const filters = url.list('filter');
  const body = { event, date_from: from, date_to: to, ...(filters.length ? { filters: filtersOf(filters) } : {}) };
  const key = JSON.stringify(body);
  const answer = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/stickiness', { params: { path: { id: projectId } }, body: body as never })), [projectId, key]);
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

export const isStickinessEmpty = (d: Schemas['StickinessResponse']) => d.distribution.every((x) => x.actors === 0);

/** People by their number of active days, as the page and a dashboard tile show them. */
export function StickinessAnswer({ data: d }: { data: Schemas['StickinessResponse'] }) {
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

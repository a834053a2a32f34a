// A project's first screen, the activity summary: DAU, WAU, MAU and how sticky the product is for
// a day (today in the project's time zone unless the URL names one), and daily active people over
// the 30 days up to it, for any event or one.

import { api, ok, type Schemas } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { LineChart } from '../ui/charts/LineChart';
import { addDays, formatNumber, formatPercent } from '../ui/format';
import { ControlBar, EventPicker, useEventNames } from './controls/Controls';
import { useInsight, usePartialBucket } from './insight';
import { Tile } from './Tile';
import { SaveInsight } from '../dashboards/SaveInsight';

export function Overview() {
  const { projectId, project, today, url } = useInsight();
  const timezone = project?.timezone ?? 'UTC';
  const dateTo = url.get('date', today);
  const event = url.get('event', 'any');
  const names = useEventNames(projectId);
  const path = { path: { id: projectId } };

  const summary = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/activity-summary', { params: path, body: { date_to: dateTo, event } })), [projectId, dateTo, event]);
  const trend = useAsync(
    () =>
      ok(
        api.POST('/api/v1/projects/{id}/queries/segmentation', {
          params: path,
          body: { event, metric: 'uniques', interval: 'day', date_from: addDays(dateTo, -29), date_to: dateTo },
        }),
      ),
    [projectId, dateTo, event],
  );

  const partial = usePartialBucket(trend.data?.series[0]?.points.map((p) => p.bucket) ?? []);
  if (!project) return <Empty title="No such project in this organization" />;
  const s = summary.data;
  const total = trend.data?.series[0];
  return (
    <section aria-labelledby="overview-title">
      <div class="page-header">
        <h1 id="overview-title">{project.name}</h1>
        <span class="muted">
          Activity on {dateTo}, days in {timezone}
        </span>
        <SaveInsight projectId={projectId} kind="activity-summary" query={{ date_to: dateTo, event }} dateRange={url.get('date') ? null : 'today'} title="Activity" />
      </div>
      <ControlBar>
        <EventPicker label="Active means doing" value={event} names={names} allowAny onValue={(v) => url.set({ event: v })} />
        <div class="control">
          <label class="control-label" for="activity-date">
            Day
          </label>
          <input id="activity-date" type="date" value={dateTo} max={today} onChange={(e) => url.set({ date: (e.currentTarget as HTMLInputElement).value })} />
        </div>
      </ControlBar>
      <ErrorNote error={summary.error} />
      {summary.loading && !s ? (
        <Loading />
      ) : (
        s && (
          <ActivityAnswer data={s} />
        )
      )}
      <h2>Daily active people, last 30 days</h2>
      <ErrorNote error={trend.error} />
      {trend.loading && !total ? (
        <Loading />
      ) : total && total.points.some((p) => (p.value ?? 0) > 0) ? (
        <LineChart title="Daily active people" labels={total.points.map((p) => p.bucket)} series={[{ name: 'People', values: total.points.map((p) => p.value) }]} partial={partial} />
      ) : (
        !trend.error && (
          <Empty title="No events in the last 30 days">
            Send events with a key from <a href={`/projects/${projectId}/keys`}>Keys and tracker</a>.
          </Empty>
        )
      )}
    </section>
  );
}

/** DAU, WAU, MAU and how sticky the product is, as tiles: the page's and a dashboard tile's. */
export function ActivityAnswer({ data: s }: { data: Schemas['ActivitySummaryResponse'] }) {
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

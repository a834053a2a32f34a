// A project's first screen, the activity summary: DAU, WAU, MAU and how sticky the product is for
// a day (today in the project's time zone unless the URL names one), and daily active people over
// the 30 days up to it, for any event or one.

import { Empty, ErrorNote, Loading } from '../../ui/states';
import { LineChart } from '../../ui/charts/LineChart';
import { addDays } from '../../ui/format';
import { ControlBar, EventPicker, useEventNames } from '../controls/Controls';
import { useInsight, usePartialBucket } from '../insight';
import { SaveInsight } from '../../dashboards/SaveInsight';
import { useQuery } from '../useQuery';
import { DownloadCsv } from '../answerCsv';
import { activityCodec } from './codec';
import { ActivityAnswer } from './View';

export function Overview() {
  const { projectId, project, today, url } = useInsight();
  const timezone = project?.timezone ?? 'UTC';
  const body = activityCodec.toRequest(url.params, today);
  const { date_to: dateTo, event } = body;
  const names = useEventNames(projectId);

  const summary = useQuery('activity-summary', projectId, body);
  const trend = useQuery('segmentation', projectId, { event, metric: 'uniques', interval: 'day', date_from: addDays(dateTo, -29), date_to: dateTo });

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
        <SaveInsight projectId={projectId} kind="activity-summary" query={body} dateRange={url.get('date') ? null : 'today'} title="Activity" />
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
          <>
            <div class="answer-actions">
              <DownloadCsv data={s} name="Activity" />
            </div>
            <ActivityAnswer data={s} />
          </>
        )
      )}
      <h2>Daily active people, last 30 days</h2>
      <ErrorNote error={trend.error} />
      {trend.loading && !total ? (
        <Loading />
      ) : total?.points.some((p) => (p.value ?? 0) > 0) ? (
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

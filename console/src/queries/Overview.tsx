// A project's first screen: the activity tiles (DAU, WAU, MAU, stickiness) for today in the
// project's time zone, and daily active people over the last 30 days.

import { useRoute } from 'preact-iso';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { useAsync } from '../ui/useAsync';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { LineChart } from '../ui/charts/LineChart';
import { addDays, formatNumber, formatPercent, todayIn } from '../ui/format';

export function Overview() {
  const { params } = useRoute();
  const projectId = Number(params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const timezone = project?.timezone ?? 'UTC';
  const dateTo = todayIn(timezone);
  const path = { path: { id: projectId } };

  const summary = useAsync(() => ok(api.POST('/api/v1/projects/{id}/queries/activity-summary', { params: path, body: { date_to: dateTo, event: 'any' } })), [projectId, dateTo]);
  const trend = useAsync(
    () =>
      ok(
        api.POST('/api/v1/projects/{id}/queries/segmentation', {
          params: path,
          body: { event: 'any', metric: 'uniques', interval: 'day', date_from: addDays(dateTo, -29), date_to: dateTo },
        }),
      ),
    [projectId, dateTo],
  );

  if (!project) return <Empty title="No such project in this organization" />;
  const s = summary.data;
  const total = trend.data?.series[0];
  return (
    <section aria-labelledby="overview-title">
      <div class="page-header">
        <h1 id="overview-title">{project.name}</h1>
        <span class="muted">
          Today is {dateTo} in {timezone}
        </span>
      </div>
      <ErrorNote error={summary.error} />
      {summary.loading && !s ? (
        <Loading />
      ) : (
        s && (
          <div class="tiles" data-testid="activity-tiles">
            <Tile label="Daily active" value={formatNumber(s.dau)} name="dau" />
            <Tile label="Weekly active" value={formatNumber(s.wau)} name="wau" />
            <Tile label="Monthly active" value={formatNumber(s.mau)} name="mau" />
            <Tile label="DAU / MAU" value={formatPercent(s.dau_mau)} name="dau_mau" />
            <Tile label="Active on 2+ days" value={formatPercent(s.repeat_activity)} name="repeat_activity" />
            <Tile label="Active days per person" value={s.usage_frequency === null ? '—' : s.usage_frequency.toFixed(1)} name="usage_frequency" />
          </div>
        )
      )}
      <h2>Daily active people, last 30 days</h2>
      <ErrorNote error={trend.error} />
      {trend.loading && !total ? (
        <Loading />
      ) : total && total.points.some((p) => (p.value ?? 0) > 0) ? (
        <LineChart title="Daily active people" labels={total.points.map((p) => p.bucket)} series={[{ name: 'People', values: total.points.map((p) => p.value) }]} />
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

function Tile({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <div class="tile" data-metric={name}>
      <div class="tile-label">{label}</div>
      <div class="tile-value">{value}</div>
    </div>
  );
}

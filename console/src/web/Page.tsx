// Web (the page of the `web` insight kind): visitors, page views, views per visit, bounce rate and visit duration against the previous
// period, a daily chart, and the pages, sources, places and devices tables. Every row is a filter
// for the whole page (a country, then a device: both hold); dates and filters live in the URL, as
// an insight's do, and the page saves as an insight for dashboards. The live count is asked on its
// own every 30 seconds, fresh, for today only, so the rest of the page stays as drawn.

import { useEffect } from 'preact/hooks';
import { api, ok } from '../api/client';
import { ControlBar, DateRange, FilterEditor, usePropertyKeys } from '../queries/controls/Controls';
import { filterText } from '../queries/filters';
import { InsightFrame, useInsight } from '../queries/insight';
import { useQuery } from '../queries/useQuery';
import { formatNumber } from '../ui/format';
import { useAsync } from '../ui/useAsync';
import { isWebEmpty, webCodec } from './codec';
import { WebAnswer } from './View';

const LIVE_EVERY_MS = 30_000;

export function WebAnalytics() {
  const ctx = useInsight(webCodec.defaultDays);
  const { projectId, url } = ctx;
  const keys = usePropertyKeys(projectId);
  const filterList = url.list('filter');
  const body = webCodec.toRequest(url.params, ctx.today);
  const answer = useQuery('web', projectId, body);
  const live = useAsync(
    () =>
      ok(
        api.POST('/api/v1/projects/{id}/queries/web', {
          params: { path: { id: projectId } },
          headers: { 'Cache-Control': 'no-cache' },
          body: { date_from: ctx.today, date_to: ctx.today, limit: 1, ...(body.filters ? { filters: body.filters } : {}) },
        }),
      ),
    [projectId, ctx.today, JSON.stringify(body.filters ?? [])],
  );
  useEffect(() => {
    const timer = setInterval(() => live.reload(), LIVE_EVERY_MS);
    return () => clearInterval(timer);
  }, [live.reload]);
  const addFilter = (field: string, value: string | null) => {
    const text = filterText(value === null ? { field, op: 'not_exists' } : { field, op: 'eq', value });
    if (!filterList.includes(text)) url.set({ filter: [...filterList, text] });
  };
  const controls = (
    <ControlBar>
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <FilterEditor projectId={projectId} filters={filterList} keys={keys} onChange={(f) => url.set({ filter: f })} segments={false} />
      <p class="web-live" aria-live="polite">
        <strong data-testid="web-live">{live.data ? formatNumber(live.data.live_visitors) : '…'}</strong> visitors in the last 5 minutes
      </p>
    </ControlBar>
  );
  return (
    <>
      <InsightFrame title="Web" project={ctx.project} controls={controls} save={{ kind: 'web', query: body, dateRange: ctx.dates.range }} answer={answer} isEmpty={isWebEmpty}>
        {(d) => <WebAnswer data={d} onPick={addFilter} />}
      </InsightFrame>
      <p class="muted web-attribution">
        Countries:{' '}
        <a href="https://db-ip.com" rel="noreferrer">
          IP Geolocation by DB-IP
        </a>
        , licensed under{' '}
        <a href="https://creativecommons.org/licenses/by/4.0/" rel="noreferrer">
          CC BY 4.0
        </a>
        , shipped with pp and read offline. Map:{' '}
        <a href="https://www.naturalearthdata.com" rel="noreferrer">
          Made with Natural Earth
        </a>
        , public domain.
      </p>
    </>
  );
}

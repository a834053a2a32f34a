// Behavior → Pages: the project's pages (normalized URLs) in the API's order, most events first,
// with their click, rage and dead click and scroll figures; each opens its page report. Dates and
// filters live in the URL and go along to the report.

import { api, ok, type Schemas } from '../api/client';
import { formatNumber, formatPercent } from '../ui/format';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { Empty } from '../ui/states';
import { LoadMore, ReportControls, ReportFrame, useReport, usePaged } from './report';

type PageRow = Schemas['BehaviorURL'];

/** A count with its share of the page's clicks, e.g. "3 (12.5%)". */
export const countWithRate = (n: number, rate: number | null) => `${formatNumber(n)} (${formatPercent(rate)})`;

export function Pages() {
  const ctx = useReport();
  const { projectId, query } = ctx;
  const paged = usePaged(
    (cursor?: string) => ok(api.GET('/api/v1/projects/{id}/pages/behavior/urls', { params: { path: { id: projectId }, query: { ...query, ...(cursor ? { cursor } : {}) } } })),
    [projectId, JSON.stringify(query)],
  );
  return (
    <ReportFrame title="Pages" titleId="behavior-pages-title" ctx={ctx} controls={<ReportControls ctx={ctx} />} paged={paged}>
      {(first) =>
        paged.items.length === 0 ? (
          <Empty title={`No page events from ${first.date_from} to ${first.date_to}`}>
            Widen the dates or loosen the filters. Clicks and scroll depth are collected when the project's settings turn them on.
          </Empty>
        ) : (
          <>
            <p class="result-meta">
              Pages by events, {first.date_from} to {first.date_to}. Rates are shares of the page's clicks; scroll reach is the share of measured page views that got at least halfway down.
            </p>
            <Table label="Pages" testId="behavior-pages">
              <TableHead columns={['Page', 'Events', 'Page views', 'Clicks', 'People who clicked', 'Rage clicks', 'Dead clicks', 'Read halfway', 'Mean scroll depth']} />
              <tbody>
                {paged.items.map((p: PageRow) => (
                  <tr>
                    <th scope="row" class="url-cell">
                      <a href={ctx.linkTo('/behavior/page', { url: p.url })}>{p.url}</a>
                    </th>
                    <td>{formatNumber(p.events)}</td>
                    <td>{formatNumber(p.page_views)}</td>
                    <td>{formatNumber(p.clicks)}</td>
                    <td>{formatNumber(p.unique_clickers)}</td>
                    <td>{countWithRate(p.rage_clicks, p.rage_click_rate)}</td>
                    <td>{countWithRate(p.dead_clicks, p.dead_click_rate)}</td>
                    <td>{formatPercent(p.scroll.reach_50)}</td>
                    <td>{depthText(p.scroll.mean_depth)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <LoadMore paged={paged} what="pages" />
          </>
        )
      }
    </ReportFrame>
  );
}

/** A mean depth in percent of the page (already a percent, not a fraction). */
export const depthText = (depth: number | null) => (depth === null ? '—' : `${depth.toFixed(1)}%`);

// What the page behavior and forms pages share: the report parameters of the URL (dates and
// filters, as insights keep them) in the form the API takes them, links that carry them to the
// next page, the control bar, cursor paging with "Load more", and the frame with its states.

import type { ComponentChildren } from 'preact';
import { ControlBar, DateRange, FilterEditor, filtersOf, usePropertyKeys } from '../queries/controls/Controls';
import { useInsight, type InsightContext } from '../queries/insight';
import { AnswerError, Empty, Loading } from '../ui/states';
import { LoadMore, usePaged, type Page, type Paged } from '../ui/usePaged';

export { LoadMore, usePaged };
import './behavior.css';

/** The query parameters every behavior report takes (docs/behavior.md#report-parameters). */
export interface ReportQuery {
  date_from: string;
  date_to: string;
  filters?: string;
}

export interface ReportContext extends InsightContext {
  query: ReportQuery;
  /** A console path with the report's dates and filters of this page kept, plus `params`. */
  linkTo(path: string, params: Record<string, string | null | undefined>): string;
}

export function useReport(): ReportContext {
  const ctx = useInsight();
  const filters = filtersOf(ctx.url.list('filter'));
  const query: ReportQuery = { date_from: ctx.from, date_to: ctx.to, ...(filters.length ? { filters: JSON.stringify(filters) } : {}) };
  const kept = { range: ctx.url.get('range'), from: ctx.url.get('from'), to: ctx.url.get('to'), filter: ctx.url.get('filter') };
  const linkTo = (path: string, params: Record<string, string | null | undefined>) => {
    const search = Object.entries({ ...params, ...kept })
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '')
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
      .join('&');
    return `/projects/${ctx.projectId}${path}${search ? `?${search}` : ''}`;
  };
  return { ...ctx, query, linkTo };
}

/** The date range and filter rows of a report, in the URL like an insight's. */
export function ReportControls({ ctx, children }: { ctx: ReportContext; children?: ComponentChildren }) {
  const keys = usePropertyKeys(ctx.projectId);
  return (
    <ControlBar>
      {children}
      <DateRange value={ctx.dates} today={ctx.today} onChange={ctx.setDates} />
      <FilterEditor projectId={ctx.projectId} filters={ctx.url.list('filter')} keys={keys} onChange={(f) => ctx.url.set({ filter: f })} segments={false} />
    </ControlBar>
  );
}

/** A report page: its title and project line, the controls, then the first page's states. */
export function ReportFrame<P extends Page>({
  title,
  titleId,
  subtitle,
  ctx,
  controls,
  paged,
  children,
}: {
  title: ComponentChildren;
  titleId: string;
  subtitle?: ComponentChildren;
  ctx: ReportContext;
  controls: ComponentChildren;
  paged: Paged<P>;
  children: (first: P) => ComponentChildren;
}) {
  if (!ctx.project) return <Empty title="No such project in this organization" />;
  return (
    <section aria-labelledby={titleId}>
      <div class="page-header">
        <h1 id={titleId}>{title}</h1>
        <span class="muted">
          {ctx.project.name} · days in {ctx.project.timezone}
        </span>
      </div>
      {subtitle}
      {controls}
      {paged.first ? children(paged.first) : paged.loading ? <Loading label="Running the report…" /> : <AnswerError error={paged.error} />}
    </section>
  );
}

// What the page behavior and forms pages share: the report parameters of the URL (dates and
// filters, as insights keep them) in the form the API takes them, links that carry them to the
// next page, the control bar, cursor paging with "Load more", and the frame with its states.

import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ControlBar, DateRange, FilterEditor, filtersOf, usePropertyKeys } from '../queries/controls/Controls';
import { useInsight, type InsightContext } from '../queries/insight';
import { AnswerError, Empty, ErrorNote, Loading } from '../ui/states';
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

interface Page {
  items: unknown[];
  next_cursor: string | null;
}

export interface Paged<P extends Page> {
  /** The first page's answer: what a report says besides its list (figures, heatmap). */
  first?: P;
  /** Every row loaded so far, pages in order. */
  items: P['items'];
  more: boolean;
  loading: boolean;
  error?: Error;
  loadMore(): void;
  reload(): void;
}

/**
 * A cursor-paginated report: a change of `deps` loads its first page anew; "Load more" appends
 * the next. An answer that arrives after a newer first page was asked for is dropped.
 */
export function usePaged<P extends Page>(load: (cursor?: string) => Promise<P>, deps: unknown[]): Paged<P> {
  const [state, setState] = useState<{ first?: P; items: P['items']; next: string | null; loading: boolean; error?: Error }>({ items: [], next: null, loading: true });
  const generation = useRef(0);
  const fetchPage = (cursor?: string) => {
    const mine = cursor ? generation.current : ++generation.current;
    setState((s) => (cursor ? { ...s, loading: true, error: undefined } : { items: [], next: null, loading: true }));
    load(cursor).then(
      (page) =>
        mine === generation.current &&
        setState((s) => ({ first: cursor ? s.first : page, items: cursor ? ([...s.items, ...page.items] as P['items']) : page.items, next: page.next_cursor, loading: false })),
      (error: Error) => mine === generation.current && setState((s) => ({ ...s, loading: false, error })),
    );
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => fetchPage(), deps);
  return {
    first: state.first,
    items: state.items,
    more: state.next !== null,
    loading: state.loading,
    error: state.error,
    loadMore: () => state.next !== null && fetchPage(state.next),
    reload: () => fetchPage(),
  };
}

/** The next page's button while there is one, and the error of the last try. */
export function LoadMore({ paged, what }: { paged: Pick<Paged<Page>, 'more' | 'loading' | 'error' | 'loadMore'>; what: string }) {
  return (
    <>
      <ErrorNote error={paged.error} />
      {paged.more && (
        <button type="button" class="button secondary" disabled={paged.loading} onClick={() => paged.loadMore()}>
          {paged.loading ? 'Loading…' : `Load more ${what}`}
        </button>
      )}
    </>
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

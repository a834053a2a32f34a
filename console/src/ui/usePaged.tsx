// Cursor paging of a list with "Load more": a change of the list's parameters loads its first page
// anew, "Load more" appends the next, and an answer that arrives after a newer first page was asked
// for is dropped, so rows of another question are never drawn.

import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote } from './states';

export interface Page {
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
 * A cursor-paginated list: a change of `deps` loads its first page anew; "Load more" appends
 * the next. An answer that arrives after a newer first page was asked for is dropped.
 */
export function usePaged<P extends Page>(load: (cursor?: string) => Promise<P>, deps: unknown[]): Paged<P> {
  // What the rows were asked for: rows of other parameters are never drawn, not even for the one
  // render between a change and its new first page (they may be of another kind).
  const key = JSON.stringify(deps);
  const [state, setState] = useState<{ key: string; first?: P; items: P['items']; next: string | null; loading: boolean; error?: Error }>({ key: '', items: [], next: null, loading: true });
  const generation = useRef(0);
  const fetchPage = (cursor?: string) => {
    const mine = cursor ? generation.current : ++generation.current;
    setState((s) => (cursor ? { ...s, loading: true, error: undefined } : { key, items: [], next: null, loading: true }));
    load(cursor).then(
      (page) =>
        mine === generation.current &&
        setState((s) => ({ key, first: cursor ? s.first : page, items: cursor ? ([...s.items, ...page.items] as P['items']) : page.items, next: page.next_cursor, loading: false })),
      (error: Error) => mine === generation.current && setState((s) => ({ ...s, loading: false, error })),
    );
  };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => fetchPage(), deps);
  const current = state.key === key;
  return {
    first: current ? state.first : undefined,
    items: current ? state.items : [],
    more: current && state.next !== null,
    loading: !current || state.loading,
    error: current ? state.error : undefined,
    loadMore: () => current && state.next !== null && fetchPage(state.next),
    reload: () => fetchPage(),
  };
}

/** The next page's button while there is one ("Load more", or "Load more <what>"), and the error of the last try. */
export function LoadMore({ paged, what }: { paged: Pick<Paged<Page>, 'more' | 'loading' | 'error' | 'loadMore'>; what?: string }) {
  return (
    <>
      <ErrorNote error={paged.error} />
      {paged.more && (
        <button type="button" class="button secondary" disabled={paged.loading} onClick={() => paged.loadMore()}>
          {paged.loading ? 'Loading…' : what ? `Load more ${what}` : 'Load more'}
        </button>
      )}
    </>
  );
}

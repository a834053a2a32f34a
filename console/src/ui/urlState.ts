// An insight's parameters live in the URL query, so a link opens the same chart for another
// member. Reading gives strings with defaults; writing replaces the query (no history entry per
// keystroke) and keeps what other controls wrote since the last render. Lists go through
// `listCodec`, so an empty item (a step not chosen yet) survives.

import { useLocation } from 'preact-iso';
import { decodeList, encodeList } from './listCodec';

export interface UrlState {
  /** The query's values as they stand (a list still encoded), for a codec to read. */
  params: Readonly<Record<string, string | undefined>>;
  get(name: string, fallback?: string): string;
  list(name: string): string[];
  set(changes: Record<string, string | string[] | undefined>): void;
}

export function useUrlState(): UrlState {
  const { path, query, route } = useLocation();
  return {
    params: query,
    get: (name, fallback = '') => query[name] ?? fallback,
    list: (name) => decodeList(query[name]),
    set(changes) {
      // The address as it is now, not as this render saw it: two changes in a row (a list chosen,
      // then a date typed) must both stay, even when the second handler was drawn before the first.
      const now = location.pathname === path ? Object.fromEntries(new URLSearchParams(location.search)) : query;
      const next = new Map(Object.entries(now));
      for (const [key, value] of Object.entries(changes)) {
        // An empty string is a scalar left unset, but a list's value: one empty item.
        const text = Array.isArray(value) ? encodeList(value) : value === '' ? undefined : value;
        if (text === undefined) next.delete(key);
        else next.set(key, text);
      }
      // encodeURIComponent keeps `~` (the list separator) readable in a shared link.
      const search = [...next].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v ?? '')}`).join('&');
      route(`${path}${search ? `?${search}` : ''}`, true);
    },
  };
}

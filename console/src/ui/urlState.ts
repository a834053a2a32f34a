// An insight's parameters live in the URL query, so a link opens the same chart for another
// member. Reading gives strings with defaults; writing replaces the query (no history entry per
// keystroke).

import { useLocation } from 'preact-iso';

export interface UrlState {
  get(name: string, fallback?: string): string;
  list(name: string): string[];
  set(changes: Record<string, string | string[] | undefined>): void;
}

export function useUrlState(): UrlState {
  const { path, query, route } = useLocation();
  return {
    get: (name, fallback = '') => query[name] ?? fallback,
    list: (name) => (query[name] ? query[name]!.split('~').filter(Boolean) : []),
    set(changes) {
      const next = new Map(Object.entries(query));
      for (const [key, value] of Object.entries(changes)) {
        const text = Array.isArray(value) ? value.join('~') : value;
        if (text === undefined || text === '') next.delete(key);
        else next.set(key, text);
      }
      // encodeURIComponent keeps `~` (the list separator) readable in a shared link.
      const search = [...next].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v ?? '')}`).join('&');
      route(`${path}${search ? `?${search}` : ''}`, true);
    },
  };
}

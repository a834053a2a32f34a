// Loads data for a page: the answer, the error (never swallowed) and whether it is loading; a
// change of the dependencies reloads, and an answer that arrives after a newer request is dropped.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Async<T> {
  data?: T;
  error?: Error;
  loading: boolean;
  reload(): void;
}

export function useAsync<T>(load: () => Promise<T>, deps: unknown[]): Async<T> {
  const [result, setResult] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setResult((r) => ({ data: r.data, loading: true }));
    load().then(
      (data) => mine === generation.current && setResult({ data, loading: false }),
      (error: Error) => mine === generation.current && setResult({ error, loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(run, [run]);
  return { ...result, reload: run };
}

// One record a page shows and changes (a dashboard, a saved insight): read when the route names
// it, replaced by the server's answer to each change, read again on demand.

import { useEffect, useState } from 'preact/hooks';

export interface LoadedRecord<T> {
  value?: T;
  error?: Error;
  set(value: T): void;
  reload(): void;
}

export function useRecord<T>(read: () => Promise<T>, deps: unknown[]): LoadedRecord<T> {
  const [value, set] = useState<T>();
  const [error, setError] = useState<Error>();
  const reload = () => void read().then((v) => (set(v), setError(undefined)), setError);
  useEffect(() => {
    set(undefined);
    setError(undefined);
    reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  return { value, error, set, reload };
}

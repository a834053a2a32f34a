// What every form and button that calls the API needs: whether it is working, the error it got
// (shown, never swallowed), and a submit handler that does not reload the page.

import { useState } from 'preact/hooks';

export interface Action {
  busy: boolean;
  error?: Error;
  /** Runs the work; its error is kept for the page to show. */
  run(work: () => Promise<void>): Promise<void>;
  /** Forgets the error (the form changed to another question). */
  clear(): void;
  /** A form's onSubmit that runs the work. */
  handle(work: () => Promise<void>): (e: Event) => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error>();
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    error,
    run,
    clear: () => setError(undefined),
    handle: (work) => (e: Event) => {
      e.preventDefault();
      void run(work);
    },
  };
}

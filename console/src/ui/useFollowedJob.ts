// Follows a background job (a purge, a deletion) while it is queued or running: asks for its state
// every second and hands each answer on, until it succeeded or failed. A failed poll is kept as
// the error and tried again.

import { useEffect, useState } from 'preact/hooks';

export interface JobLike {
  id: number;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
}

/** How often a queued or running job is asked for its state. */
const POLL_MS = 1000;

export const jobFinished = (job: JobLike) => job.state === 'succeeded' || job.state === 'failed';

/** Polls `job` with `load` while it is unfinished; `onState` gets every answer. Answers the last poll's error. */
export function useFollowedJob<J extends JobLike>(job: J | undefined, load: (job: J) => Promise<J>, onState: (job: J) => void): Error | undefined {
  const [error, setError] = useState<Error>();
  useEffect(() => {
    if (!job || jobFinished(job)) return;
    const timer = setTimeout(() => {
      load(job).then(
        (next) => (setError(undefined), onState(next)),
        // The same job again, as a new object: the effect runs anew and polls once more.
        (e: Error) => (setError(e), onState({ ...job })),
      );
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [job]);
  return error;
}

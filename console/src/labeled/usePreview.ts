// The live count of a rule being edited: the raw events its conditions match over the last 30
// days, asked for 400 ms after the conditions stop changing. An answer for conditions that have
// changed since is dropped; saving asks for the count of the conditions as they are.

import { useEffect, useRef, useState } from 'preact/hooks';
import { previewRule, type Conditions, type Preview } from './labeledApi';

const DEBOUNCE_MS = 400;

export interface PreviewState {
  /** The conditions can be counted (every attribute row is complete). */
  countable: boolean;
  loading: boolean;
  answer?: Preview;
  error?: Error;
  /** The count for these conditions: the answer shown when it is theirs, else asked now. */
  countFor(body: Conditions): Promise<number>;
}

export function usePreview(projectId: number, body: Conditions | undefined): PreviewState {
  const key = body ? JSON.stringify(body) : '';
  const latest = useRef(key);
  const answered = useRef<{ key: string; answer: Preview }>(undefined);
  const [state, setState] = useState<{ loading: boolean; answer?: Preview; error?: Error }>({ loading: body !== undefined });

  latest.current = key;
  useEffect(() => {
    if (!body) {
      setState({ loading: false });
      return;
    }
    setState({ loading: true });
    const timer = setTimeout(() => {
      previewRule(projectId, body).then(
        (answer) => {
          answered.current = { key, answer };
          if (latest.current === key) setState({ loading: false, answer });
        },
        (error: Error) => latest.current === key && setState({ loading: false, error }),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [projectId, key]);

  const countFor = async (conditions: Conditions) => {
    const wanted = JSON.stringify(conditions);
    if (answered.current?.key === wanted) return answered.current.answer.count;
    const answer = await previewRule(projectId, conditions);
    answered.current = { key: wanted, answer };
    return answer.count;
  };
  return { countable: body !== undefined, ...state, countFor };
}

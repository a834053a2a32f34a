// What every insight page shares: the project of the route, today in its time zone, the date
// range of the URL (default: the last 30 days), and the frame with a title, the action that saves
// the page's query as an insight, and the answer's loading, error and empty states.

import type { ComponentChildren } from 'preact';
import { useRoute } from 'preact-iso';
import { useSession, type Project } from '../app/session';
import { addDays, nowIn, partialBucket, todayIn } from '../ui/format';
import { AnswerError, Empty, Loading } from '../ui/states';
import type { Async } from '../ui/useAsync';
import { useUrlState, type UrlState } from '../ui/urlState';
import { SaveInsight } from '../dashboards/SaveInsight';

export interface InsightContext {
  projectId: number;
  project?: Project;
  today: string;
  from: string;
  to: string;
  url: UrlState;
}

export function useInsight(defaultDays = 30): InsightContext {
  const projectId = Number(useRoute().params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const today = todayIn(project?.timezone ?? 'UTC');
  const url = useUrlState();
  return { projectId, project, today, from: url.get('from', addDays(today, -(defaultDays - 1))), to: url.get('to', today), url };
}

/**
 * The currency of the project of the route, in which its answers' money is; undefined where no
 * project of the session is open (a shared link), whose amounts then stand without a currency.
 */
export function useProjectCurrency(): string | undefined {
  const projectId = Number(useRoute().params.projectId);
  return useSession().projects?.find((p) => p.id === projectId)?.currency;
}

/**
 * Which of an answer's buckets is still filling by the clock of the project of the route (the
 * current hour, today, this week or month): its index, or -1 (none in range, a range `to` a day
 * before today, or no project open).
 */
export function usePartialBucket(buckets: string[], to?: string): number {
  const projectId = Number(useRoute().params.projectId);
  const timezone = useSession().projects?.find((p) => p.id === projectId)?.timezone;
  return timezone ? partialBucket(buckets, nowIn(timezone), to) : -1;
}

/** The saved insight a page was opened from (`?saved=<id>`), if any. */
const savedIdOf = (text: string) => (/^[1-9]\d*$/.test(text) ? Number(text) : undefined);

export function InsightFrame<T>({
  title,
  project,
  controls,
  answer,
  isEmpty,
  needs,
  save,
  children,
}: {
  title: string;
  project?: Project;
  controls: ComponentChildren;
  answer?: Async<T>;
  isEmpty?(data: T): boolean;
  /** Why the query cannot run yet (e.g. no event chosen); shown instead of the answer. */
  needs?: string;
  /** The query as the page asks it, offered to be saved as an insight of `kind`. */
  save?: { kind: string; query: unknown };
  children?: (data: T) => ComponentChildren;
}) {
  const url = useUrlState();
  if (!project) return <Empty title="No such project in this organization" />;
  return (
    <section aria-labelledby="insight-title">
      <div class="page-header">
        <h1 id="insight-title">{title}</h1>
        <span class="muted">
          {project.name} · days in {project.timezone}
        </span>
        {save && !needs && <SaveInsight projectId={project.id} kind={save.kind} query={save.query} title={title} savedId={savedIdOf(url.get('saved'))} />}
      </div>
      {controls}
      {needs ? (
        <Empty title={needs} />
      ) : !answer ? null : (
        <>
          <AnswerError error={answer.error} />
          {answer.loading && <Loading label="Running the query…" />}
          {answer.data !== undefined && !answer.loading && (isEmpty?.(answer.data) ? <Empty title="No events match in this range">Widen the dates or loosen the filters.</Empty> : children?.(answer.data))}
        </>
      )}
    </section>
  );
}

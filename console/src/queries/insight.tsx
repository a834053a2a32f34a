// What every insight page shares: the project of the route, today in its time zone, the dates of
// the URL (a rolling `range` such as last_30_days, the default, or fixed `from`/`to`), and the frame with a title, the action that saves
// the page's query as an insight, and the answer's loading, error and empty states.

import type { ComponentChildren } from 'preact';
import { useRoute } from 'preact-iso';
import { useSession, type Project } from '../app/session';
import { nowIn, partialBucket, todayIn } from '../ui/format';
import { urlDates, type Dates } from '../ui/dateRanges';
import { AnswerError, Empty, Loading } from '../ui/states';
import type { Async } from '../ui/useAsync';
import { useUrlState, type UrlState } from '../ui/urlState';
import { SaveInsight } from '../dashboards/SaveInsight';
import { DownloadCsv } from './answerCsv';

export interface InsightContext {
  projectId: number;
  project?: Project;
  today: string;
  from: string;
  to: string;
  /** The dates with their rule when rolling: what the date control shows and a save keeps. */
  dates: Dates;
  setDates(dates: Dates): void;
  url: UrlState;
}

/** The URL's dates: its rolling range, else its fixed dates, else the last `defaultDays` days. */
export function useInsight(defaultDays = 30): InsightContext {
  const projectId = Number(useRoute().params.projectId);
  const project = useSession().projects?.find((p) => p.id === projectId);
  const today = todayIn(project?.timezone ?? 'UTC');
  const url = useUrlState();
  const dates = urlDates(url.params, today, defaultDays);
  const setDates = (d: Dates) => url.set(d.range ? { range: d.range, from: undefined, to: undefined } : { range: undefined, from: d.from, to: d.to });
  return { projectId, project, today, from: dates.from, to: dates.to, dates, setDates, url };
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
  /** The query as the page asks it, offered to be saved as an insight of `kind` with its rolling range, if any. */
  save?: { kind: string; query: unknown; dateRange?: string };
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
        {save && !needs && <SaveInsight projectId={project.id} kind={save.kind} query={save.query} dateRange={save.dateRange ?? null} title={title} savedId={savedIdOf(url.get('saved'))} />}
      </div>
      {controls}
      {needs ? (
        <Empty title={needs} />
      ) : !answer ? null : (
        <>
          <AnswerError error={answer.error} />
          {answer.loading && <Loading label="Running the query…" />}
          {answer.data !== undefined &&
            !answer.loading &&
            (isEmpty?.(answer.data) ? (
              <Empty title="No events match in this range">Widen the dates or loosen the filters.</Empty>
            ) : (
              <>
                <div class="answer-actions">
                  <DownloadCsv data={answer.data} name={title} />
                </div>
                {children?.(answer.data)}
              </>
            ))}
        </>
      )}
    </section>
  );
}

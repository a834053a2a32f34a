// "Watch" links into recordings from other pages: a session's recording, or the list of a
// person's (or a page's) recordings. Only shown where the organization has people drill-down.

import { useSession } from '../app/session';
import { hasFeature } from '../app/features';

export function recordingHref(projectId: number, sessionId: string): string {
  return `/projects/${projectId}/recordings/${encodeURIComponent(sessionId)}`;
}

export function recordingsHref(projectId: number, filters: Record<string, string>): string {
  const query = new URLSearchParams(filters).toString();
  return `/projects/${projectId}/recordings${query ? `?${query}` : ''}`;
}

/** A link to watch (its text `Watch`, named `label` for screen readers), or nothing when recordings cannot be opened here. */
export function WatchLink({ href, label, text = 'Watch' }: { href: string; label: string; text?: string }) {
  const session = useSession();
  if (!hasFeature(session, 'actor_drilldown')) return null;
  return (
    <a class="watch-link" href={href} aria-label={text === label ? undefined : label}>
      {text}
    </a>
  );
}

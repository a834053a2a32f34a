// Links from lists of people to a person's page: the actor id itself as the link, so every list
// (funnel drop-offs, retention cells, events, recordings) opens the same page.

export function personHref(projectId: number, actorId: string): string {
  return `/projects/${projectId}/persons/${encodeURIComponent(actorId)}`;
}

/** The actor id as a link to their page. */
export function PersonLink({ projectId, actorId }: { projectId: number; actorId: string }) {
  return (
    <a href={personHref(projectId, actorId)} class="person-link" aria-label={`Person ${actorId}`}>
      <code>{actorId}</code>
    </a>
  );
}

// What admins may do about a person on request: download everything stored about them (the
// NDJSON export, saved as a file) and delete them (confirmed, then the job followed until it
// succeeds or fails). Shown with or without the people drill-down license: neither depends on it.

import { useState } from 'preact/hooks';
import { api, apiFetch, ok, toApiError, type Schemas } from '../api/client';
import { countOf } from '../ui/format';
import { ConfirmButton } from '../ui/ConfirmButton';
import { ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';
import { useFollowedJob } from '../ui/useFollowedJob';

type Job = Schemas['PersonDeletionJob'];

export function PersonActions({ projectId, personKey }: { projectId: number; personKey: string }) {
  const [job, setJob] = useState<Job>();
  const download = useAction();
  const pollError = useFollowedJob(job, (j) => ok(api.GET('/api/v1/projects/{id}/person-deletions/{jobID}', { params: { path: { id: projectId, jobID: j.id } } })), setJob);

  const exportData = () =>
    download.run(async () => {
      const res = await apiFetch(`/api/v1/projects/${projectId}/persons/${encodeURIComponent(personKey)}/export`, { method: 'POST' });
      if (!res.ok) throw toApiError(res.status, await res.json().catch(() => undefined));
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'person.ndjson';
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    });

  return (
    <section class="card danger-zone" aria-labelledby="person-requests-title">
      <h2 id="person-requests-title">Requests about this person</h2>
      <p>A person may ask for a copy of their data, or for its deletion. Both cover every event, identity link, trait and recording of theirs.</p>
      <div class="person-actions">
        <button type="button" class="button secondary" onClick={() => void exportData()} disabled={download.busy} aria-busy={download.busy ? true : undefined}>
          {download.busy ? 'Preparing…' : 'Download their data'}
        </button>
        <ConfirmButton
          label="Delete this person"
          class="button danger"
          disabled={job !== undefined && job.state !== 'failed'}
          title={`Delete ${personKey}?`}
          confirmLabel="Delete the person"
          testId="person-delete-dialog"
          onConfirm={async () => setJob(await ok(api.DELETE('/api/v1/projects/{id}/persons/{key}', { params: { path: { id: projectId, key: personKey } } })))}
        >
          <p>
            Every event of theirs, the events derived from them, their identity links, traits and recordings are deleted, and the figures built from them are computed again. Their ids are refused at
            collection for 30 days. This cannot be undone.
          </p>
        </ConfirmButton>
      </div>
      <ErrorNote error={download.error} />
      {job && <DeletionStatus job={job} />}
      <ErrorNote error={pollError} />
    </section>
  );
}

function DeletionStatus({ job }: { job: Job }) {
  const text =
    job.state === 'succeeded'
      ? `The person was deleted: ${countOf(job.deleted_events ?? 0, 'event')} and ${countOf(job.deleted_recordings ?? 0, 'recording')}.`
      : job.state === 'failed'
        ? `The deletion failed: ${job.error ?? 'no reason given'}.`
        : job.state === 'running'
          ? 'Deleting the person…'
          : 'The deletion is queued…';
  return (
    <p class={job.state === 'failed' ? 'error-note' : 'notice'} role="status" data-testid="person-deletion-status" data-state={job.state}>
      {text}
    </p>
  );
}

// Deleting all of a project's form data (admins and owners, a danger section of the project
// settings): a dialog that asks for the project's name, the purge queued with its confirmation
// header, the job followed until it succeeds or fails, and the latest purges of the project.

import { useState } from 'preact/hooks';
import { api, ok, type Schemas } from '../api/client';
import { formatDateTime, formatNumber } from '../ui/format';
import { ConfirmButton } from '../ui/ConfirmButton';
import { ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAsync } from '../ui/useAsync';
import { jobFinished, useFollowedJob } from '../ui/useFollowedJob';
import './behavior.css';

type Job = Schemas['FormPurgeJob'];

const finished = jobFinished;

export function FormPurge({ projectId, projectName }: { projectId: number; projectName: string }) {
  const path = { path: { id: projectId } };
  const jobs = useAsync(() => ok(api.GET('/api/v1/projects/{id}/behavior/forms/purge', { params: path })), [projectId]);
  const [job, setJob] = useState<Job>();

  // A purge another admin started, still queued or running, is followed like one started here.
  const active = job ?? jobs.data?.items.find((j) => !finished(j));
  const pollError = useFollowedJob(
    active,
    (j) => ok(api.GET('/api/v1/projects/{id}/behavior/forms/purge/{jobID}', { params: { path: { id: projectId, jobID: j.id } } })),
    (next) => {
      setJob(next);
      if (finished(next)) jobs.reload();
    },
  );

  return (
    <section class="card danger-zone" aria-labelledby="purge-title">
      <h2 id="purge-title">Form data</h2>
      <p>
        Deleting the project's form data removes every form start, submit and abandon it ever collected, and every figure derived from them. Form events that arrive afterwards are kept: turn off form
        collection in the project settings first to stop them.
      </p>
      <ConfirmButton
        label="Delete all form data"
        class="button danger"
        disabled={active !== undefined && !finished(active)}
        title={`Delete all form data of ${projectName}?`}
        confirmLabel="Delete all form data"
        typeToConfirm={projectName}
        testId="purge-dialog"
        onConfirm={async () => {
          const queued = await ok(api.POST('/api/v1/projects/{id}/behavior/forms/purge', { params: { path: { id: projectId }, header: { 'X-Confirm-Purge': 'true' } } }));
          setJob(queued);
          jobs.reload();
        }}
      >
        <p>Every form start, submit and abandon of the project, of all time, is deleted, with the form figures built from them. This cannot be undone.</p>
      </ConfirmButton>
      {active && <JobStatus job={active} />}
      <ErrorNote error={pollError} />
      <h3>Latest deletions</h3>
      <ErrorNote error={jobs.error} />
      {jobs.loading && !jobs.data ? <Loading /> : <JobsTable jobs={jobs.data?.items ?? []} />}
    </section>
  );
}

function JobStatus({ job }: { job: Job }) {
  const text =
    job.state === 'succeeded'
      ? `Form data deleted: ${formatNumber(job.deleted_events)} form events.`
      : job.state === 'failed'
        ? `The deletion failed: ${job.error ?? 'no reason given'}.`
        : job.state === 'running'
          ? 'Deleting form data…'
          : 'The deletion is queued…';
  return (
    <p class={job.state === 'failed' ? 'error-note' : 'notice'} role="status" data-testid="purge-status" data-state={job.state}>
      {text}
    </p>
  );
}

function JobsTable({ jobs }: { jobs: Job[] }) {
  if (jobs.length === 0) return <p class="muted">Form data of this project was never deleted.</p>;
  return (
    <Table label="Deletions of form data" testId="purge-jobs">
      <TableHead columns={['Requested', 'State', 'Events deleted', 'Started', 'Finished', 'Error']} />
      <tbody>
        {jobs.map((j) => (
          <tr data-state={j.state}>
            <td>{formatDateTime(j.created_at)}</td>
            <td>
              <span class={`badge${j.state === 'succeeded' ? ' active' : j.state === 'failed' ? ' revoked' : ''}`}>{j.state}</span>
            </td>
            <td>{formatNumber(j.deleted_events)}</td>
            <td>{formatDateTime(j.started_at)}</td>
            <td>{formatDateTime(j.finished_at)}</td>
            <td>{j.error ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

// Imports and exports of a project's events (admins and owners, in the project settings): upload a
// file to import and follow its progress or cancel it; start an export and download its file
// through the signed link the job gives. docs/migrating.md describes the formats.

import { useEffect, useState } from 'preact/hooks';
import { api, apiFetch, ok, toApiError, type Schemas } from '../api/client';
import { formatDateTime, formatNumber } from '../ui/format';
import { Field, Select, Submit } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';

type ImportJob = Schemas['ImportJob'];
type ExportJob = Schemas['ExportJob'];

/** How often unfinished jobs are asked for their progress. */
const POLL_MS = 1000;
const ended = (state: string) => state === 'succeeded' || state === 'failed' || state === 'cancelled' || state === 'expired';
const badge = (state: string) => `badge${state === 'succeeded' ? ' active' : state === 'failed' || state === 'cancelled' ? ' revoked' : ''}`;

/** Reloads `reload` every POLL_MS while `busy`. */
function usePolling(busy: boolean, reload: () => void): void {
  useEffect(() => {
    if (!busy) return;
    const timer = setTimeout(reload, POLL_MS);
    return () => clearTimeout(timer);
  });
}

export function TransferCard({ projectId }: { projectId: number }) {
  return (
    <section class="card" aria-labelledby="transfer-title">
      <h2 id="transfer-title">Imports and exports</h2>
      <p>Import history from PostHog, Amplitude, CSV or another pp; export this project's events with every stored field.</p>
      <Imports projectId={projectId} />
      <Exports projectId={projectId} />
    </section>
  );
}

function Imports({ projectId }: { projectId: number }) {
  const path = { path: { id: projectId } };
  const jobs = useAsync(() => ok(api.GET('/api/v1/projects/{id}/imports', { params: path })), [projectId]);
  const [file, setFile] = useState<File>();
  const [format, setFormat] = useState('posthog');
  const { busy, error, handle } = useAction();
  usePolling(Boolean(jobs.data?.items.some((j) => !ended(j.state))), jobs.reload);
  const start = handle(async () => {
    if (!file) throw toApiError(422, { error: { code: 'validation_failed', message: 'Choose a file to import.' } });
    const query = new URLSearchParams({ format, name: file.name });
    const res = await apiFetch(`/api/v1/projects/${projectId}/imports?${query}`, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file });
    if (!res.ok) throw toApiError(res.status, await res.json().catch(() => undefined));
    jobs.reload();
  });
  const cancel = async (job: ImportJob) => {
    await ok(api.DELETE('/api/v1/projects/{id}/imports/{importID}', { params: { path: { id: projectId, importID: job.id } } }));
    jobs.reload();
  };
  return (
    <>
      <h3>Import</h3>
      <form class="form-grid" onSubmit={start} noValidate aria-label="Import events">
        <div class="field">
          <label for="import-file">File</label>
          <input id="import-file" type="file" onChange={(e) => setFile((e.currentTarget as HTMLInputElement).files?.[0] ?? undefined)} />
        </div>
        <Select label="Format" value={format} onValue={setFormat} hint="CSV columns named like pp's fields fill them; the other columns become properties.">
          <option value="posthog">PostHog export (JSON lines or CSV)</option>
          <option value="amplitude">Amplitude export (zip)</option>
          <option value="ndjson">pp export (NDJSON)</option>
          <option value="csv">CSV</option>
        </Select>
        <ErrorNote error={error} />
        <div>
          <Submit busy={busy}>Import</Submit>
        </div>
      </form>
      <ErrorNote error={jobs.error} />
      {jobs.loading && !jobs.data ? <Loading /> : <ImportsTable jobs={jobs.data?.items ?? []} onCancel={cancel} />}
    </>
  );
}

function ImportsTable({ jobs, onCancel }: { jobs: ImportJob[]; onCancel: (job: ImportJob) => void }) {
  if (jobs.length === 0) return <p class="muted">Nothing was imported into this project yet.</p>;
  return (
    <Table label="Imports" testId="imports">
      <TableHead columns={['File', 'State', 'Progress', 'Stored', 'Duplicates', 'Refused', 'Started', '']} />
      <tbody>
        {jobs.map((j) => (
          <tr data-state={j.state} data-id={j.id}>
            <td>{j.files.join(', ')}</td>
            <td>
              <span class={badge(j.state)}>{j.state}</span>
              {j.error && <div class="muted">{j.error}</div>}
            </td>
            <td>
              <progress max={Math.max(1, j.total_bytes)} value={j.done_bytes} aria-label={`Progress of ${j.files.join(', ')}`} />
            </td>
            <td data-col="stored">{formatNumber(j.stored)}</td>
            <td data-col="duplicates">{formatNumber(j.duplicates)}</td>
            <td data-col="rejected" title={j.rejections.map((r) => `${r.file} line ${r.line}: ${r.reason}`).join('\n')}>
              {formatNumber(j.rejected)}
            </td>
            <td>{formatDateTime(j.started_at)}</td>
            <td>
              {!ended(j.state) && (
                <button type="button" class="button secondary" onClick={() => onCancel(j)}>
                  Cancel
                </button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function Exports({ projectId }: { projectId: number }) {
  const path = { path: { id: projectId } };
  const jobs = useAsync(() => ok(api.GET('/api/v1/projects/{id}/exports', { params: path })), [projectId]);
  const [format, setFormat] = useState<'ndjson' | 'csv' | 'parquet'>('ndjson');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const { busy, error, handle } = useAction();
  usePolling(Boolean(jobs.data?.items.some((j) => !ended(j.state))), jobs.reload);
  const start = handle(async () => {
    await ok(api.POST('/api/v1/projects/{id}/exports', { params: path, body: { format, from: from || null, to: to || null } }));
    jobs.reload();
  });
  return (
    <>
      <h3>Export</h3>
      <form class="form-grid" onSubmit={start} noValidate aria-label="Export events">
        <Select label="Export format" value={format} onValue={(v) => setFormat(v as typeof format)}>
          <option value="ndjson">NDJSON (imports back unchanged)</option>
          <option value="csv">CSV</option>
          <option value="parquet">Parquet</option>
        </Select>
        <Field label="From (first day, optional)" type="date" value={from} onValue={setFrom} />
        <Field label="To (last day, optional)" type="date" value={to} onValue={setTo} />
        <ErrorNote error={error} />
        <div>
          <Submit busy={busy}>Export</Submit>
        </div>
      </form>
      <ErrorNote error={jobs.error} />
      {jobs.loading && !jobs.data ? <Loading /> : <ExportsTable jobs={jobs.data?.items ?? []} />}
    </>
  );
}

function ExportsTable({ jobs }: { jobs: ExportJob[] }) {
  if (jobs.length === 0) return <p class="muted">This project was never exported.</p>;
  return (
    <Table label="Exports" testId="exports">
      <TableHead columns={['Requested', 'Format', 'Days', 'State', 'Events', '']} />
      <tbody>
        {jobs.map((j) => (
          <tr data-state={j.state} data-id={j.id}>
            <td>{formatDateTime(j.created_at)}</td>
            <td>{j.format}</td>
            <td>{j.from || j.to ? `${j.from ?? '…'} – ${j.to ?? '…'}` : 'all'}</td>
            <td>
              <span class={badge(j.state)}>{j.state}</span>
              {j.error && <div class="muted">{j.error}</div>}
            </td>
            <td data-col="events">{formatNumber(j.events)}</td>
            <td>
              {j.download_url && (
                <a class="button secondary" href={j.download_url} download>
                  Download
                </a>
              )}
              {j.download_url && j.file_expires_at && <div class="muted">kept until {formatDateTime(j.file_expires_at)}</div>}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

// Project settings' recordings card: how long recordings are kept (admins change it) and the
// storage the project's recordings use now.

import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { useAction } from '../ui/useAction';
import { formatNumber } from '../ui/format';

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'];

export function formatBytes(n: number): string {
  let v = n;
  let u = 0;
  while (v >= 1000 && u < UNITS.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${formatNumber(n)} bytes` : `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

export function RecordingsCard({ projectId, canEdit }: { projectId: number; canEdit: boolean }) {
  const path = { params: { path: { id: projectId } } };
  const stored = useAsync(() => ok(api.GET('/api/v1/projects/{id}/replay-settings', path)), [projectId]);
  const [days, setDays] = useState('');
  const [saved, setSaved] = useState(false);
  const { busy, error, handle } = useAction();
  const s = stored.data;
  useEffect(() => void (s && setDays(String(s.replay_retention_days))), [s?.replay_retention_days]);
  const save = handle(async () => {
    setSaved(false);
    await ok(api.PATCH('/api/v1/projects/{id}/replay-settings', { ...path, body: { replay_retention_days: Number(days) } }));
    stored.reload();
    setSaved(true);
  });
  return (
    <form class="card form-grid" onSubmit={save} noValidate aria-labelledby="recordings-card-title">
      <h2 id="recordings-card-title">Session recordings</h2>
      <ErrorNote error={stored.error} />
      {!s ? (
        <Loading />
      ) : (
        <>
          <p data-testid="recordings-storage">
            {formatNumber(s.recordings)} {s.recordings === 1 ? 'recording uses' : 'recordings use'} {formatBytes(s.stored_bytes)} of storage ({formatBytes(s.raw_bytes)} as recorded).
          </p>
          {canEdit ? (
            <Field
              label="Keep recordings for (days)"
              type="number"
              value={days}
              onValue={setDays}
              hint="Recordings whose last activity is older are deleted within the hour."
              problem={fieldProblem(error, 'replay_retention_days')}
            />
          ) : (
            <p>Recordings are kept {formatNumber(s.replay_retention_days)} days after their last activity.</p>
          )}
          <ErrorNote error={error && !fieldProblem(error, 'replay_retention_days') ? error : undefined} />
          {saved && (
            <p class="notice" role="status">
              Saved.
            </p>
          )}
          {canEdit && (
            <div>
              <Submit busy={busy}>Update retention</Submit>
            </div>
          )}
        </>
      )}
    </form>
  );
}

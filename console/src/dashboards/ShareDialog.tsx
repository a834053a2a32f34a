// Public links to a dashboard or a saved insight (admins and owners): a new link with an optional
// expiry, its address shown once with a copy button, and the target's live links, each revocable
// at once. Whoever holds a link sees the figures and nothing else of the project.

import { useState } from 'preact/hooks';
import { CopyButton } from '../ui/CopyButton';
import { formatDateTime } from '../ui/format';
import { Select, Submit } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';
import type { Schemas } from '../api/client';
import { createShareLink, listShareLinks, revokeShareLink, type ShareTarget } from './dashboardsApi';
import { Dialog } from './Dialog';

const EXPIRY: Array<[string, string]> = [
  ['', 'never'],
  ['1', 'in 1 day'],
  ['7', 'in 7 days'],
  ['30', 'in 30 days'],
  ['90', 'in 90 days'],
];

export function ShareDialog({ projectId, target, onClose }: { projectId: number; target: ShareTarget; onClose(): void }) {
  const links = useAsync(() => listShareLinks(projectId).then((r) => r.items.filter((l) => l.target.kind === target.kind && l.target.id === target.id)), [projectId, target.kind, target.id]);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<Schemas['CreatedShareLink']>();
  const create = useAction();
  const revoke = useAction();
  const submit = create.handle(async () => {
    const expires = days ? { expires_at: new Date(Date.now() + Number(days) * 86_400_000).toISOString() } : {};
    setCreated(await createShareLink(projectId, { ...(target.kind === 'dashboard' ? { dashboard_id: target.id } : { insight_id: target.id }), ...expires }));
    links.reload();
  });
  const address = created?.url_path ? `${location.origin}${created.url_path}` : undefined;
  return (
    <Dialog title={`Share ${target.name}`} testId="share-dialog" onClose={onClose}>
      <p class="hint">Anyone with the link sees this {target.kind === 'dashboard' ? "dashboard's" : "insight's"} figures, without signing in, and nothing else of the project.</p>
      <form class="form-grid inline-form" onSubmit={submit}>
        <Select label="The link expires" value={days} onValue={setDays}>
          {EXPIRY.map(([value, text]) => (
            <option value={value}>{text}</option>
          ))}
        </Select>
        <div class="field">
          <Submit busy={create.busy}>Create a link</Submit>
        </div>
      </form>
      <ErrorNote error={create.error} />
      {address && (
        <div class="issued" data-testid="share-link-created">
          <strong>The link, shown only now:</strong>
          <div class="dash-share-url">
            <code data-testid="share-url">{address}</code>
            <CopyButton value={address} label="Copy the link" />
          </div>
        </div>
      )}
      <h3>Live links</h3>
      <ErrorNote error={links.error ?? revoke.error} />
      {links.loading && !links.data ? (
        <Loading />
      ) : links.data && links.data.length > 0 ? (
        <Table label="Share links" testId="share-links">
          <TableHead columns={['Created', 'By', 'Expires', 'Last used']} actions />
          <tbody>
            {links.data.map((l) => (
              <tr data-link-id={l.id}>
                <td>{formatDateTime(l.created_at)}</td>
                <td>{l.created_by?.name ?? l.created_by?.email ?? '—'}</td>
                <td>{l.expires_at ? formatDateTime(l.expires_at) : 'never'}</td>
                <td>{l.last_used_at ? formatDateTime(l.last_used_at) : 'not yet'}</td>
                <td class="actions">
                  <button
                    type="button"
                    class="button danger small"
                    disabled={revoke.busy}
                    aria-label={`Revoke link ${l.id}, created ${formatDateTime(l.created_at)}`}
                    onClick={() => void revoke.run(async () => (await revokeShareLink(projectId, l.id), links.reload()))}
                  >
                    Revoke
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <p class="muted">No live link.</p>
      )}
      <div class="dash-dialog-actions">
        <button type="button" class="button secondary" onClick={(e) => (e.currentTarget as HTMLElement).closest('dialog')?.close()}>
          Close
        </button>
      </div>
    </Dialog>
  );
}

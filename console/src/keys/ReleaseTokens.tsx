// Release tokens: the one credential a deploy pipeline holds, allowed only to record deploy markers.
// Issued with a name (and an optional expiry), the value shown once; revocable at any time.

import { useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { ConfirmButton } from '../ui/ConfirmButton';
import { useAsync } from '../ui/useAsync';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { formatDateTime } from '../ui/format';
import { useAction } from '../ui/useAction';
import { ShownOnce } from '../ui/ShownOnce';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

export function ReleaseTokens({ projectId }: { projectId: number }) {
  const path = { params: { path: { id: projectId } } };
  const tokens = useAsync(() => ok(api.GET('/api/v1/projects/{id}/release-tokens', path)), [projectId]);
  const [name, setName] = useState('');
  const [expires, setExpires] = useState('');
  const [issued, setIssued] = useState<{ name: string; value: string }>();
  const { busy, error, handle } = useAction();
  const issue = handle(async () => {
    const token = await ok(api.POST('/api/v1/projects/{id}/release-tokens', { ...path, body: { name, ...(expires ? { expires_at: `${expires}T00:00:00Z` } : {}) } }));
    setIssued({ name: token.name, value: token.value });
    setName('');
    tokens.reload();
  });
  const revoke = async (id: number) => {
    await ok(api.DELETE('/api/v1/projects/{id}/release-tokens/{tokenID}', { params: { path: { id: projectId, tokenID: id } } }));
    tokens.reload();
  };
  return (
    <div class="card" role="group" aria-labelledby="release-title">
      <h2 id="release-title">Release tokens</h2>
      <p class="muted">
        For deploy pipelines: a <code>pp_rel_</code> token can only record deploy markers (<code>POST /api/v1/projects/{projectId}/release-markers/deploy</code>).
      </p>
      {issued && (
        <ShownOnce value={issued.value} testId="issued-release-token">
          <strong>{issued.name}</strong>: copy the value now, it is not shown again.
        </ShownOnce>
      )}
      <form class="form-grid inline-form" onSubmit={issue} noValidate aria-label="Issue a release token">
        <Field label="Token name" value={name} onValue={setName} problem={fieldProblem(error, 'name')} />
        <Field label="Expires on (optional)" type="date" value={expires} onValue={setExpires} problem={fieldProblem(error, 'expires_at')} />
        <div>
          <Submit busy={busy}>Issue the token</Submit>
        </div>
      </form>
      <ErrorNote error={(error && !['name', 'expires_at'].some((f) => fieldProblem(error, f)) ? error : undefined) ?? tokens.error} />
      {tokens.loading && !tokens.data ? (
        <Loading />
      ) : (
        tokens.data &&
        tokens.data.items.length > 0 && (
          <Table label="Release tokens" testId="release-tokens">
            <TableHead columns={['Name', 'Prefix', 'Expires', 'Status']} actions />
            <tbody>
              {tokens.data.items.map((tok) => (
                <tr>
                  <td>{tok.name}</td>
                  <td>
                    <code>{tok.prefix}</code>
                  </td>
                  <td>{formatDateTime(tok.expires_at)}</td>
                  <td>
                    <span class={`badge ${tok.status}`}>{tok.status}</span>
                  </td>
                  <td class="actions">
                    {tok.status === 'active' && (
                      <ConfirmButton
                        label="Revoke"
                        ariaLabel={`Revoke ${tok.name}`}
                        class="button danger small"
                        title={`Revoke ${tok.name}?`}
                        confirmLabel="Revoke the token"
                        onConfirm={() => revoke(tok.id)}
                      >
                        <p>Deploys using it can no longer record markers.</p>
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )
      )}
    </div>
  );
}

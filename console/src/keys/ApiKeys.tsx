// Personal API keys on the member's own account page: create one (name, scopes up to the member's
// role, an optional project and expiry) and see its value once; list them with their last use;
// revoke. A key stands for the member on /api/v1 (docs/api-keys.md).

import { useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { useSession } from '../app/session';
import { ConfirmButton } from '../ui/ConfirmButton';
import { useAsync } from '../ui/useAsync';
import { Field, Select, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { formatDateTime } from '../ui/format';
import { useAction } from '../ui/useAction';
import { ShownOnce } from '../ui/ShownOnce';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

type Scope = 'read' | 'write' | 'admin';
const ROLES = ['viewer', 'analyst', 'admin', 'owner'];
const SCOPES: Array<{ scope: Scope; label: string; role: string }> = [
  { scope: 'read', label: 'Read: queries, events, reports', role: 'viewer' },
  { scope: 'write', label: 'Write: saved insights, dashboards', role: 'analyst' },
  { scope: 'admin', label: 'Admin: keys, members, settings', role: 'admin' },
];

export function ApiKeysCard() {
  const { me, projects } = useSession();
  const keys = useAsync(() => ok(api.GET('/api/v1/me/api-keys')), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['read']);
  const [project, setProject] = useState('');
  const [expires, setExpires] = useState('');
  const [issued, setIssued] = useState<{ name: string; value: string }>();
  const { busy, error, handle } = useAction();
  const rank = ROLES.indexOf(me?.org.role ?? 'viewer');
  const allowed = SCOPES.filter((s) => ROLES.indexOf(s.role) <= rank);
  const toggle = (scope: Scope, on: boolean) => setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));
  const create = handle(async () => {
    const body = { name, scopes, ...(project ? { project_id: Number(project) } : {}), ...(expires ? { expires_at: `${expires}T00:00:00Z` } : {}) };
    const key = await ok(api.POST('/api/v1/me/api-keys', { body }));
    setIssued({ name: key.name, value: key.value });
    setName('');
    keys.reload();
  });
  const revoke = async (id: number) => {
    await ok(api.DELETE('/api/v1/me/api-keys/{keyID}', { params: { path: { keyID: id } } }));
    keys.reload();
  };
  const projectName = (id: number | null) => (id === null ? 'All projects' : (projects?.find((p) => p.id === id)?.name ?? `#${id}`));
  const fields = ['name', 'scopes', 'project_id', 'expires_at'];
  return (
    <div class="card" role="group" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title">API keys</h2>
      <p class="muted">
        For scripts and BI tools: send a key as <code>Authorization: Bearer pp_pk_…</code> to <code>/api/v1</code>. It acts as you, never beyond your role.
      </p>
      {issued && (
        <ShownOnce value={issued.value} testId="issued-api-key">
          <strong>{issued.name}</strong>: copy the key now, it is not shown again.
        </ShownOnce>
      )}
      <form class="form-grid" onSubmit={create} noValidate aria-label="Create an API key">
        <Field label="Key name" value={name} onValue={setName} problem={fieldProblem(error, 'name')} />
        <fieldset class="field">
          <legend>Scopes</legend>
          {allowed.map((s) => (
            <label class="check">
              <input type="checkbox" checked={scopes.includes(s.scope)} onChange={(e) => toggle(s.scope, (e.currentTarget as HTMLInputElement).checked)} /> {s.label}
            </label>
          ))}
        </fieldset>
        <Select label="Project" value={project} onValue={setProject}>
          <option value="">All projects</option>
          {projects?.map((p) => (
            <option value={String(p.id)}>{p.name}</option>
          ))}
        </Select>
        <Field label="Expires on (optional)" type="date" value={expires} onValue={setExpires} problem={fieldProblem(error, 'expires_at')} />
        <div>
          <Submit busy={busy}>Create key</Submit>
        </div>
      </form>
      <ErrorNote error={(error && !fields.some((f) => fieldProblem(error, f)) ? error : undefined) ?? keys.error} />
      {keys.loading && !keys.data ? (
        <Loading />
      ) : (
        keys.data &&
        keys.data.items.length > 0 && (
          <Table label="API keys" testId="api-keys">
            <TableHead columns={['Name', 'Prefix', 'Scopes', 'Project', 'Expires', 'Last used', 'Status']} actions />
            <tbody>
              {keys.data.items.map((k) => (
                <tr>
                  <td>{k.name}</td>
                  <td>
                    <code>{k.prefix}</code>
                  </td>
                  <td>{k.scopes.join(', ')}</td>
                  <td>{projectName(k.project_id)}</td>
                  <td>{k.expires_at ? formatDateTime(k.expires_at) : 'never'}</td>
                  <td>{k.last_used_at ? formatDateTime(k.last_used_at) : 'never'}</td>
                  <td>
                    <span class={`badge ${k.status}`}>{k.status}</span>
                  </td>
                  <td class="actions">
                    {k.status === 'active' && (
                      <ConfirmButton label="Revoke" ariaLabel={`Revoke ${k.name}`} class="button danger small" title={`Revoke ${k.name}?`} confirmLabel="Revoke the key" onConfirm={() => revoke(k.id)}>
                        <p>Scripts and tools using it get 401 from the next request.</p>
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

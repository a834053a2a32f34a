// A project's credentials: ingestion keys (a browser token with domains and expiry, or a server
// key; the value once with a copy button; rotate and revoke), the tracker snippet with the
// integrity value of the manifest of the tracker version this server ships, what the project
// collects through it, and release tokens.

import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { useSession } from '../app/session';
import { CollectionSettings } from '../behavior/CollectionSettings';
import { api, ok, type Schemas } from '../api/client';
import { ConfirmButton } from '../ui/ConfirmButton';
import { useAsync } from '../ui/useAsync';
import { Field, Select, Submit, fieldProblem } from '../ui/forms';
import { Empty, ErrorNote, Loading } from '../ui/states';
import { addDays, formatDateTime, todayIn } from '../ui/format';
import { TrackerSnippet } from './TrackerSnippet';
import { ReleaseTokens } from './ReleaseTokens';
import { useAction } from '../ui/useAction';
import { ShownOnce } from '../ui/ShownOnce';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';

type Issued = { name: string; value: string };

export function Keys() {
  const projectId = Number(useRoute().params.projectId);
  const { me } = useSession();
  const isAdmin = me?.org.role === 'admin' || me?.org.role === 'owner';
  const keys = useAsync(() => ok(api.GET('/api/v1/projects/{id}/keys', { params: { path: { id: projectId } } })), [projectId]);
  const [issued, setIssued] = useState<Issued>();
  const [error, setError] = useState<Error>();

  const act = async (work: () => Promise<void>) => {
    setError(undefined);
    try {
      await work();
      keys.reload();
    } catch (err) {
      setError(err as Error);
    }
  };
  const rotate = (key: Schemas['IngestKey']) =>
    act(async () => {
      const next = await ok(api.POST('/api/v1/projects/{id}/keys/{keyID}/rotate', { params: { path: { id: projectId, keyID: key.id } } }));
      setIssued({ name: next.name, value: next.value });
    });
  const revoke = async (key: Schemas['IngestKey']) => {
    await ok(api.DELETE('/api/v1/projects/{id}/keys/{keyID}', { params: { path: { id: projectId, keyID: key.id } } }));
    keys.reload();
  };

  const browserKey = issued?.value.startsWith('pp_bt_') ? issued.value : undefined;
  return (
    <section aria-labelledby="keys-title">
      <div class="page-header">
        <h1 id="keys-title">Keys and tracker</h1>
      </div>
      {issued && (
        <ShownOnce value={issued.value} testId="issued-key">
          <strong>{issued.name}</strong>: copy the value now, it is not shown again.
        </ShownOnce>
      )}
      <ErrorNote error={error ?? keys.error} />
      <NewKey projectId={projectId} onIssued={(k) => (setIssued(k), keys.reload())} />
      <h2>Ingestion keys</h2>
      {keys.loading && !keys.data ? (
        <Loading />
      ) : keys.data && keys.data.items.length > 0 ? (
        <Table label="Ingestion keys">
          <TableHead columns={['Name', 'Type', 'Prefix', 'Domains', 'Expires', 'Status']} actions />
          <tbody>
            {keys.data.items.map((key) => (
              <tr>
                <td>{key.name}</td>
                <td>{key.type}</td>
                <td>
                  <code>{key.prefix}</code>
                </td>
                <td>{key.domains.join(', ') || '—'}</td>
                <td>{formatDateTime(key.expires_at)}</td>
                <td>
                  <span class={`badge ${key.status}`}>{key.status}</span>
                </td>
                <td class="actions">
                  {key.status === 'active' && (
                    <>
                      <button type="button" class="button secondary small" onClick={() => void rotate(key)} aria-label={`Rotate ${key.name}`}>
                        Rotate
                      </button>
                      <ConfirmButton
                        label="Revoke"
                        ariaLabel={`Revoke ${key.name}`}
                        class="button danger small"
                        title={`Revoke ${key.name}?`}
                        confirmLabel="Revoke the key"
                        onConfirm={() => revoke(key)}
                      >
                        <p>Senders using it are refused from now on.</p>
                      </ConfirmButton>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : (
        <Empty title="No keys yet">Issue a browser token for the tracker, or a server key for your backend.</Empty>
      )}
      <TrackerSnippet browserKey={browserKey} />
      <CollectionSettings projectId={projectId} canEdit={isAdmin} />
      <ReleaseTokens projectId={projectId} />
    </section>
  );
}

function NewKey({ projectId, onIssued }: { projectId: number; onIssued(key: Issued): void }) {
  const [type, setType] = useState<'browser' | 'server'>('browser');
  const [name, setName] = useState('');
  const [domains, setDomains] = useState('');
  const [expires, setExpires] = useState(addDays(todayIn('UTC'), 365));
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    const body =
      type === 'browser'
        ? { type, name, domains: domains.split(/[\s,]+/).filter(Boolean), expires_at: `${expires}T00:00:00Z` }
        : { type, name, ...(expires ? { expires_at: `${expires}T00:00:00Z` } : {}) };
    const key = await ok(api.POST('/api/v1/projects/{id}/keys', { params: { path: { id: projectId } }, body }));
    onIssued({ name: key.name, value: key.value });
    setName('');
  });
  const fields = ['name', 'domains', 'expires_at', 'type'];
  return (
    <form class="card form-grid" onSubmit={submit} noValidate aria-labelledby="new-key-title">
      <h2 id="new-key-title">Issue a key</h2>
      <Select
        label="Type"
        value={type}
        onValue={(v) => setType(v as 'browser' | 'server')}
        hint={type === 'browser' ? 'pp_bt_: for the tracker in web pages; bound to domains, always expires.' : 'pp_sk_: for your servers; never put it in a web page.'}
      >
        <option value="browser">Browser token</option>
        <option value="server">Server key</option>
      </Select>
      <Field label="Name" required value={name} onValue={setName} problem={fieldProblem(error, 'name')} />
      {type === 'browser' && (
        <Field
          label="Domains"
          required
          value={domains}
          onValue={setDomains}
          hint="Sites allowed to send with it, separated by spaces or commas, e.g. shop.example.com *.example.com"
          problem={fieldProblem(error, 'domains')}
        />
      )}
      <Field label={type === 'browser' ? 'Expires on' : 'Expires on (optional)'} type="date" value={expires} onValue={setExpires} problem={fieldProblem(error, 'expires_at')} />
      <ErrorNote error={error && !fields.some((f) => fieldProblem(error, f)) ? error : undefined} />
      <div>
        <Submit busy={busy}>Issue the key</Submit>
      </div>
    </form>
  );
}

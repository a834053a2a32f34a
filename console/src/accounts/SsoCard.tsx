// Single sign-on settings (owners): the identity provider's issuer, client, email domains and
// just-in-time membership. The server checks the provider before it saves anything.

import { useEffect, useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { useAsync } from '../ui/useAsync';
import { Field, Select, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { CopyButton } from '../ui/CopyButton';
import { useAction } from '../ui/useAction';

export function SsoCard({ orgId }: { orgId: number }) {
  const current = useAsync(() => ok(api.GET('/api/v1/orgs/{orgID}/oidc', { params: { path: { orgID: orgId } } })), [orgId]);
  const provider = current.data?.configured ? current.data : null;
  const [form, setForm] = useState({ issuer: '', client_id: '', client_secret: '', domains: '', enabled: true, jit: false, role: 'viewer' });
  const [saved, setSaved] = useState(false);
  const { busy, error, handle } = useAction();
  useEffect(() => {
    const p = provider;
    if (p) setForm({ issuer: p.issuer, client_id: p.client_id, client_secret: '', domains: p.domains.join(' '), enabled: p.enabled, jit: p.jit.enabled, role: p.jit.default_role });
  }, [provider]);
  const set = (key: keyof typeof form) => (value: string | boolean) => setForm({ ...form, [key]: value });
  const save = handle(async () => {
    setSaved(false);
    await ok(
      api.PUT('/api/v1/orgs/{orgID}/oidc', {
        params: { path: { orgID: orgId } },
        body: {
          issuer: form.issuer.trim(),
          client_id: form.client_id.trim(),
          ...(form.client_secret ? { client_secret: form.client_secret } : {}),
          domains: form.domains.split(/[\s,]+/).filter(Boolean),
          enabled: form.enabled,
          jit: { enabled: form.jit, default_role: form.role as 'viewer' | 'analyst' | 'admin' },
        },
      }),
    );
    setSaved(true);
    current.reload();
  });
  const fields = ['issuer', 'client_id', 'client_secret', 'domains'];
  const redirect = current.data?.redirect_uri ?? `${location.origin}/api/v1/auth/oidc/callback`;
  return (
    <div class="card" role="group" aria-labelledby="sso-title">
      <h2 id="sso-title">Single sign-on</h2>
      {current.loading && current.data === undefined ? (
        <Loading />
      ) : (
        <form class="form-grid" onSubmit={save} noValidate>
          <p class="muted">
            Register this redirect URI at the identity provider: <code>{redirect}</code> <CopyButton value={redirect} />
          </p>
          <Field label="Issuer" type="url" value={form.issuer} onValue={set('issuer')} hint="Exactly the issuer of the provider's discovery document." problem={fieldProblem(error, 'issuer')} />
          <Field label="Client id" value={form.client_id} onValue={set('client_id')} problem={fieldProblem(error, 'client_id')} />
          <Field
            label="Client secret"
            type="password"
            autocomplete="off"
            value={form.client_secret}
            onValue={set('client_secret')}
            hint={provider ? 'Stored encrypted; leave empty to keep it.' : 'Stored encrypted; never shown again.'}
            problem={fieldProblem(error, 'client_secret')}
          />
          <Field
            label="Email domains"
            value={form.domains}
            onValue={set('domains')}
            hint="People of these domains sign in through this provider, e.g. acme.com"
            problem={fieldProblem(error, 'domains')}
          />
          <label class="check">
            <input type="checkbox" checked={form.enabled} onChange={(e) => set('enabled')((e.currentTarget as HTMLInputElement).checked)} /> Enabled
          </label>
          <label class="check">
            <input type="checkbox" checked={form.jit} onChange={(e) => set('jit')((e.currentTarget as HTMLInputElement).checked)} /> Let verified people of these domains join without an invitation
          </label>
          {form.jit && (
            <Select label="Role of those who join" value={form.role} onValue={set('role')}>
              <option value="viewer">viewer</option>
              <option value="analyst">analyst</option>
              <option value="admin">admin</option>
            </Select>
          )}
          <ErrorNote error={(error && !fields.some((f) => fieldProblem(error, f)) ? error : undefined) ?? current.error} />
          {saved && (
            <p class="notice" role="status">
              Saved. People of these domains can choose “Sign in with SSO”.
            </p>
          )}
          <div>
            <Submit busy={busy}>{provider ? 'Save the provider' : 'Add the provider'}</Submit>
          </div>
        </form>
      )}
    </div>
  );
}

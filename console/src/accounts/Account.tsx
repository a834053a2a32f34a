// The signed-in user's own settings: the name others see, password, two-factor authentication (QR code, confirmation,
// recovery codes shown once), the live sessions, each of which can be signed out, and personal API keys.

import { useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { loadShell, useSession } from '../app/session';
import { useAsync } from '../ui/useAsync';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote, Loading } from '../ui/states';
import { CopyButton } from '../ui/CopyButton';
import { formatDateTime } from '../ui/format';
import { PASSWORD_RULE } from '../auth/PasswordPages';
import { QrCode } from './QrCode';
import { useAction } from '../ui/useAction';
import { TableHead } from '../ui/TableHead';
import { Table } from '../ui/Table';
import { ApiKeysCard } from '../keys/ApiKeys';

export function Account() {
  const { me } = useSession();
  return (
    <section aria-labelledby="account-title">
      <div class="page-header">
        <h1 id="account-title">Your account</h1>
        <span class="muted">{me?.user.email}</span>
      </div>
      <NameCard name={me?.user.name ?? ''} />
      <PasswordCard />
      <MfaCard enabled={me?.user.mfa_enabled ?? false} />
      <SessionsCard />
      <ApiKeysCard />
    </section>
  );
}

/** The display name members lists, invitations and saved insights show for this person. */
function NameCard({ name: saved }: { name: string }) {
  const [name, setName] = useState(saved);
  const [done, setDone] = useState(false);
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    setDone(false);
    await ok(api.PATCH('/api/v1/me', { body: { name } }));
    await loadShell();
    setDone(true);
  });
  return (
    <form class="card form-grid" onSubmit={submit} noValidate aria-labelledby="name-title">
      <h2 id="name-title">Name</h2>
      <Field label="Display name" autocomplete="name" value={name} onValue={setName} hint="Shown to the other members of your organizations." problem={fieldProblem(error, 'name')} />
      <ErrorNote error={error && !fieldProblem(error, 'name') ? error : undefined} />
      {done && (
        <p class="notice" role="status">
          Name saved.
        </p>
      )}
      <div>
        <Submit busy={busy}>Save the name</Submit>
      </div>
    </form>
  );
}

function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    setDone(false);
    await ok(api.POST('/api/v1/me/password', { body: { current_password: current, new_password: next } }));
    setCurrent('');
    setNext('');
    setDone(true);
  });
  return (
    <form class="card form-grid" onSubmit={submit} noValidate aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <Field label="Current password" type="password" autocomplete="current-password" value={current} onValue={setCurrent} problem={fieldProblem(error, 'current_password')} />
      <Field label="New password" type="password" autocomplete="new-password" value={next} onValue={setNext} hint={PASSWORD_RULE} problem={fieldProblem(error, 'new_password')} />
      <ErrorNote error={error && !['current_password', 'new_password'].some((f) => fieldProblem(error, f)) ? error : undefined} />
      {done && (
        <p class="notice" role="status">
          Password changed. Your other sessions are signed out.
        </p>
      )}
      <div>
        <Submit busy={busy}>Change the password</Submit>
      </div>
    </form>
  );
}

function MfaCard({ enabled }: { enabled: boolean }) {
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string }>();
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState<string[]>();
  const { busy, error, run } = useAction();
  const start = () => run(async () => setSetup(await ok(api.POST('/api/v1/me/mfa/setup'))));
  const confirm = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const answer = await ok(api.POST('/api/v1/me/mfa/enable', { body: { code: code.trim() } }));
      setRecovery(answer.recovery_codes);
      setSetup(undefined);
      setCode('');
      await loadShell();
    });
  };
  const disable = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await ok(api.POST('/api/v1/me/mfa/disable', { body: { code: code.trim() } }));
      setCode('');
      await loadShell();
    });
  };
  return (
    <div class="card" aria-labelledby="mfa-title" role="group">
      <h2 id="mfa-title">Two-factor authentication</h2>
      {recovery && (
        <div class="issued" role="status">
          <strong>Two-factor authentication is on.</strong> Keep these recovery codes somewhere safe: each signs you in once without the app, and they are not shown again.
          <ul class="recovery-codes" data-testid="recovery-codes">
            {recovery.map((c) => (
              <li>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          <CopyButton value={recovery.join('\n')} label="Copy the codes" />
        </div>
      )}
      <ErrorNote error={error && !fieldProblem(error, 'code') ? error : undefined} />
      {enabled ? (
        <form class="form-grid" onSubmit={disable} noValidate>
          <p>
            <span class="badge active">On</span> Sign-in asks for a code from your authenticator app.
          </p>
          <Field label="Code to turn it off" autocomplete="one-time-code" value={code} onValue={setCode} hint="A current code or a recovery code." problem={fieldProblem(error, 'code')} />
          <div>
            <Submit busy={busy} variant="danger">
              Turn off
            </Submit>
          </div>
        </form>
      ) : setup ? (
        <form class="form-grid" onSubmit={confirm} noValidate>
          <p>Scan the code with an authenticator app (or enter the key by hand), then type the six digits it shows.</p>
          <QrCode text={setup.otpauth_url} label="QR code for the authenticator app" />
          <p>
            Key: <code data-testid="mfa-secret">{setup.secret}</code>
          </p>
          <Field label="Code from the app" autocomplete="one-time-code" inputMode="numeric" value={code} onValue={setCode} problem={fieldProblem(error, 'code')} />
          <div>
            <Submit busy={busy}>Turn on</Submit>
          </div>
        </form>
      ) : (
        <div>
          <p>Protect the account with a code from an authenticator app at every sign-in.</p>
          <button type="button" class="button primary" disabled={busy} onClick={() => void start()}>
            Set up two-factor authentication
          </button>
        </div>
      )}
    </div>
  );
}

function SessionsCard() {
  const sessions = useAsync(() => ok(api.GET('/api/v1/me/sessions')), []);
  const { error, run } = useAction();
  const revoke = (id: string) =>
    run(async () => {
      await ok(api.DELETE('/api/v1/me/sessions/{sessionID}', { params: { path: { sessionID: id } } }));
      sessions.reload();
    });
  return (
    <div class="card" role="group" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Signed-in sessions</h2>
      <ErrorNote error={error ?? sessions.error} />
      {sessions.loading && !sessions.data ? (
        <Loading />
      ) : (
        <Table label="Sessions">
          <TableHead columns={['Device', 'Address', 'Signed in', 'Last active']} actions />
          <tbody>
            {sessions.data?.items.map((s) => (
              <tr>
                <td class="truncate">{s.user_agent ?? 'unknown'}</td>
                <td>{s.ip ?? '—'}</td>
                <td>{formatDateTime(s.created_at)}</td>
                <td>{formatDateTime(s.last_seen_at)}</td>
                <td class="actions">
                  {s.current ? (
                    <span class="badge">This session</span>
                  ) : (
                    <button type="button" class="button secondary small" onClick={() => void revoke(s.id)}>
                      Sign out
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}

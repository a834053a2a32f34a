// Sign in: email and password, then the second factor when the account has one (a TOTP code or a
// recovery code), or single sign-on through the organization of the email's domain.

import { useState } from 'preact/hooks';
import { api, ok } from '../api/client';
import { signedIn, useSession } from '../app/session';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { AuthLayout } from './AuthLayout';
import { useAction } from '../ui/useAction';
import { useSignInOptions } from './signInOptions';
import { safeNext } from './safeNext';

/** Where to go after signing in: the page that sent the user here, if it is one of ours. */
export function nextPath(query: Record<string, string>): string {
  return safeNext(query.next, location.origin);
}

export function SignIn() {
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [mfaCode, setMfaCode] = useState('');
  const [mfaStep, setMfaStep] = useState(false);
  const [sso, setSso] = useState(false);
  const options = useSignInOptions();
  // Offered only once the server says registration is open: an appliance is invitation-only.
  const registrationOpen = options.data !== undefined && options.data.registration !== 'invitation_only';
  const { busy, error, handle, clear } = useAction();

  const submit = handle(async () => {
    if (sso) {
      const start = await ok(api.POST('/api/v1/auth/oidc/start', { body: { email } }));
      location.assign(start.authorization_url);
      return;
    }
    const answer = await ok(api.POST('/api/v1/auth/login', { body: { email, password, ...(mfaStep ? { mfa_code: mfaCode.trim() } : {}) } }));
    // Once signed in, the app's gate opens the page that sent the user here.
    if ('mfa_required' in answer) setMfaStep(true);
    else await signedIn(answer);
  });

  return (
    <AuthLayout title={mfaStep ? 'Two-factor authentication' : sso ? 'Sign in with SSO' : 'Sign in to pp'}>
      {session.notice && !error && <p class="notice">{session.notice}</p>}
      <form onSubmit={submit} noValidate>
        {!mfaStep && <Field label="Email" type="email" autocomplete="username" required value={email} onValue={setEmail} problem={fieldProblem(error, 'email')} />}
        {!mfaStep && !sso && <Field label="Password" type="password" autocomplete="current-password" required value={password} onValue={setPassword} problem={fieldProblem(error, 'password')} />}
        {mfaStep && (
          <Field
            label="Authentication code"
            autocomplete="one-time-code"
            inputMode="text"
            required
            value={mfaCode}
            onValue={setMfaCode}
            hint="The six-digit code from your authenticator app, or one of your recovery codes."
            autoFocus
          />
        )}
        <ErrorNote error={error && !fieldProblem(error, 'email') && !fieldProblem(error, 'password') ? error : undefined} />
        <Submit busy={busy}>{sso ? 'Continue with SSO' : mfaStep ? 'Verify' : 'Sign in'}</Submit>
      </form>
      <div class="auth-links">
        {!mfaStep && (
          <button type="button" class="link" onClick={() => (setSso(!sso), clear())}>
            {sso ? 'Sign in with a password' : 'Sign in with SSO'}
          </button>
        )}
        {mfaStep && (
          <button type="button" class="link" onClick={() => (setMfaStep(false), setMfaCode(''))}>
            Back
          </button>
        )}
        <a href="/forgot-password">Forgot your password?</a>
        {registrationOpen && <a href="/register">Create an account</a>}
      </div>
    </AuthLayout>
  );
}

// The password pages: ask for a reset link, set a new password from the emailed link, and the
// forced change of a one-time password (POST /me/password) before anything else.

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../api/client';
import { loadShell, signOut, useSession } from '../app/session';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { AuthLayout } from './AuthLayout';
import { useTokenFromUrl } from './tokenFromUrl';
import { useAction } from '../ui/useAction';
import { useSignInOptions } from './signInOptions';

export const PASSWORD_RULE = 'At least 8 characters, with an uppercase letter, a digit and a punctuation or symbol character.';

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, handle } = useAction();
  const options = useSignInOptions();
  const submit = handle(async () => {
    await ok(api.POST('/api/v1/auth/password/forgot', { body: { email } }));
    setSent(true);
  });
  return (
    <AuthLayout title="Reset your password">
      {options.data?.password_reset_email === false ? (
        <p class="notice" role="status">
          This server sends no email, so it cannot mail you a reset link. Ask an administrator of pp for one: they can make it with <code>ppctl admin reset-password --link</code> and your email
          address.
        </p>
      ) : sent ? (
        <p class="notice" role="status">
          If an account exists for {email}, an email with a link is on its way. The link works once, for one hour.
        </p>
      ) : (
        <form onSubmit={submit} noValidate>
          <Field label="Email" type="email" autocomplete="username" required value={email} onValue={setEmail} problem={fieldProblem(error, 'email')} />
          <ErrorNote error={error && !fieldProblem(error, 'email') ? error : undefined} />
          <Submit busy={busy}>Send the link</Submit>
        </form>
      )}
      <div class="auth-links">
        <a href="/sign-in">Back to sign in</a>
      </div>
    </AuthLayout>
  );
}

export function ResetPassword() {
  const token = useTokenFromUrl();
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    await ok(api.POST('/api/v1/auth/password/reset', { body: { token, password } }));
    setDone(true);
  });
  return (
    <AuthLayout title="Choose a new password">
      {done ? (
        <p class="notice" role="status">
          Your password is changed and every session is signed out. <a href="/sign-in">Sign in</a> with the new password.
        </p>
      ) : !token ? (
        <ErrorNote error="This page needs the link from the reset email." />
      ) : (
        <form onSubmit={submit} noValidate>
          <Field label="New password" type="password" autocomplete="new-password" required value={password} onValue={setPassword} hint={PASSWORD_RULE} problem={fieldProblem(error, 'password')} />
          <ErrorNote error={error && !fieldProblem(error, 'password') ? error : undefined} />
          <Submit busy={busy}>Set the password</Submit>
        </form>
      )}
      <div class="auth-links">
        <a href="/forgot-password">Ask for a new link</a>
        <a href="/sign-in">Sign in</a>
      </div>
    </AuthLayout>
  );
}

/** Shown instead of every page while GET /me says password_change_required. */
export function ChangePassword({ forced }: { forced?: boolean }) {
  const session = useSession();
  const { route } = useLocation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    await ok(api.POST('/api/v1/me/password', { body: { current_password: current, new_password: next } }));
    await loadShell();
    route('/', true);
  });
  const fields = ['current_password', 'new_password'];
  return (
    <AuthLayout title="Set your own password">
      {forced && <p class="notice">{session.me?.user.email} signed in with a one-time password. Choose your own before you go on; other sessions of this account will be signed out.</p>}
      <form onSubmit={submit} noValidate>
        <Field label="Current password" type="password" autocomplete="current-password" required value={current} onValue={setCurrent} problem={fieldProblem(error, 'current_password')} />
        <Field label="New password" type="password" autocomplete="new-password" required value={next} onValue={setNext} hint={PASSWORD_RULE} problem={fieldProblem(error, 'new_password')} />
        <ErrorNote error={error && !fields.some((f) => fieldProblem(error, f)) ? error : undefined} />
        <Submit busy={busy}>Save the password</Submit>
      </form>
      <div class="auth-links">
        <button type="button" class="link" onClick={() => void signOut()}>
          Sign out
        </button>
      </div>
    </AuthLayout>
  );
}

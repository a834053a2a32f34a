// The landing page of the link in a signup email (/signup/verify?token=…): the token is proven on
// load and signs in. A spent or expired link (the uniform 422) says so and offers a new email or
// registering again; a domain conflict leads to the same choices as the code does.

import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ApiError, ok } from '../../api/client';
import { bootstrap, signedIn } from '../../app/session';
import { Field, Submit, fieldProblem } from '../../ui/forms';
import { ErrorNote, Loading } from '../../ui/states';
import { useAction } from '../../ui/useAction';
import { AuthLayout } from '../AuthLayout';
import { useTokenFromUrl } from '../tokenFromUrl';
import { CheckEmail } from './CheckEmail';
import { DomainConflict } from './DomainConflict';
import { browserTimezone, domainConflictOf, type DomainHints } from './signupProof';

const isSpentLink = (error: unknown) => error instanceof ApiError && error.status === 422 && error.details.field === 'token';

export function VerifySignup() {
  const token = useTokenFromUrl();
  const { route } = useLocation();
  const [conflict, setConflict] = useState<DomainHints>();
  const [pendingEmail, setPendingEmail] = useState<string>();
  const verify = useAction();
  const [attempted, setAttempted] = useState(false);

  const prove = () =>
    verify.run(async () => {
      try {
        // The page load's bootstrap must settle first, or its signed-out answer could land after this sign-in.
        await bootstrap();
        await signedIn(await ok(api.POST('/api/v1/auth/register/verify', { body: { token } })));
        route('/', true);
      } catch (err) {
        const hints = domainConflictOf(err);
        if (!hints) throw err;
        setConflict(hints);
      } finally {
        setAttempted(true);
      }
    });
  useEffect(() => void (token && prove()), []);

  if (pendingEmail) return <CheckEmail email={pendingEmail} onRestart={() => route('/register')} />;
  if (conflict) return <DomainConflict proof={{ token }} hints={conflict} />;
  if (!token) {
    return (
      <AuthLayout title="Confirm your email">
        <ErrorNote error="This page needs the link from the confirmation email." />
        <div class="auth-links">
          <a href="/register">Create an account</a>
        </div>
      </AuthLayout>
    );
  }
  if (!attempted || verify.busy) {
    return (
      <AuthLayout title="Confirm your email">
        <Loading label="Confirming your email…" />
      </AuthLayout>
    );
  }
  if (isSpentLink(verify.error)) {
    return (
      <AuthLayout title="Confirm your email">
        <div class="error-note" role="alert">
          This link has expired or was already used.
        </div>
        <p>A newer email replaces the links of earlier ones. Ask for a new code and link for your signup, or register again.</p>
        <ResendForm onSent={setPendingEmail} />
        <div class="auth-links">
          <a href="/register">Register again</a>
          <a href="/sign-in">Sign in</a>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Confirm your email">
      <ErrorNote error={verify.error} />
      <button type="button" class="button primary" onClick={() => void prove()}>
        Try again
      </button>
      <div class="auth-links">
        <a href="/register">Register again</a>
      </div>
    </AuthLayout>
  );
}

function ResendForm({ onSent }: { onSent(email: string): void }) {
  const [email, setEmail] = useState('');
  const { busy, error, handle } = useAction();
  const submit = handle(async () => {
    const answer = await ok(api.POST('/api/v1/auth/register/resend', { body: { email, timezone: browserTimezone() } }));
    onSent(answer.email);
  });
  return (
    <form onSubmit={submit} noValidate>
      <Field label="Email" type="email" autocomplete="username" required value={email} onValue={setEmail} problem={fieldProblem(error, 'email')} />
      <ErrorNote error={error && !fieldProblem(error, 'email') ? error : undefined} />
      <Submit busy={busy}>Resend the email</Submit>
    </form>
  );
}

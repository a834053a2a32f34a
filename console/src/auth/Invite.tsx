// Accepting an invitation from its emailed link. The page first says who invited whom where, as
// what (the token's holder may ask); the first click tries the token alone: an existing account
// joins at once (or is asked for its second factor); a new address is asked for a name and a
// password, and the same request is sent again with them.

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ApiError, ok } from '../api/client';
import { signedIn } from '../app/session';
import { Field, Submit, fieldProblem } from '../ui/forms';
import { ErrorNote } from '../ui/states';
import { AuthLayout } from './AuthLayout';
import { PASSWORD_RULE } from './PasswordPages';
import { useTokenFromUrl } from './tokenFromUrl';
import { useAction } from '../ui/useAction';
import { useAsync } from '../ui/useAsync';

export function Invite() {
  const token = useTokenFromUrl();
  const { route } = useLocation();
  const [step, setStep] = useState<'accept' | 'new-account' | 'mfa'>('accept');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [mfaCode, setMfaCode] = useState('');
  const { busy, error, handle } = useAction();
  const details = useAsync(async () => (token ? ok(api.POST('/api/v1/auth/invite/lookup', { body: { token } })) : undefined), [token]);

  const submit = handle(async () => {
    const body = {
      token,
      ...(step === 'new-account' ? { password, ...(name.trim() ? { name: name.trim() } : {}) } : {}),
      ...(step === 'mfa' ? { mfa_code: mfaCode.trim() } : {}),
    };
    try {
      const answer = await ok(api.POST('/api/v1/auth/invite/accept', { body }));
      if ('mfa_required' in answer) {
        setStep('mfa');
      } else {
        await signedIn(answer);
        route('/', true);
      }
    } catch (err) {
      // A token alone does not create an account: the server asks for a password, so ask the person.
      if (step === 'accept' && err instanceof ApiError && err.status === 422 && err.details.field === 'password') setStep('new-account');
      else throw err;
    }
  });

  if (!token) {
    return (
      <AuthLayout title="Join an organization">
        <ErrorNote error="This page needs the link from the invitation email." />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={step === 'new-account' ? 'Create your account' : step === 'mfa' ? 'Two-factor authentication' : 'Join an organization'}>
      <form onSubmit={submit} noValidate>
        {step === 'accept' && <InvitationWords details={details.data} />}
        <ErrorNote error={details.error} />
        {step === 'new-account' && (
          <>
            <p>This invitation is for a new account. Choose how you will sign in.</p>
            <Field label="Your name" autocomplete="name" value={name} onValue={setName} />
            <Field label="Password" type="password" autocomplete="new-password" required value={password} onValue={setPassword} hint={PASSWORD_RULE} problem={fieldProblem(error, 'password')} />
          </>
        )}
        {step === 'mfa' && (
          <Field
            label="Authentication code"
            autocomplete="one-time-code"
            required
            value={mfaCode}
            onValue={setMfaCode}
            hint="Your account has two-factor authentication: a code from the app or a recovery code."
          />
        )}
        <ErrorNote error={error && !fieldProblem(error, 'password') ? error : undefined} />
        <Submit busy={busy}>{step === 'new-account' ? 'Create the account and join' : step === 'mfa' ? 'Verify and join' : 'Accept the invitation'}</Submit>
      </form>
      <div class="auth-links">
        <a href="/sign-in">Sign in instead</a>
      </div>
    </AuthLayout>
  );
}

/** "Ana Silva invited you to join Acme as analyst", with the invited address. */
function InvitationWords({ details }: { details?: { email: string; org_name: string; role: string; invited_by_name: string | null } }) {
  if (!details) return <p>You were invited to an organization on pp. Accept to join it.</p>;
  return (
    <p data-testid="invitation-words">
      {details.invited_by_name ? <strong>{details.invited_by_name}</strong> : 'Someone'} invited you ({details.email}) to join <strong>{details.org_name}</strong> as <strong>{details.role}</strong>.
      Accept to join it.
    </p>
  );
}

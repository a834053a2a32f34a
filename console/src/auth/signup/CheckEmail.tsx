// The second step of a trial-first signup: the six-digit code from the email, sending the email
// again (the server decides whether one goes out), and the domain choices when verify answers 409.
// A proven code signs in as registration does on-prem.

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../../api/client';
import { signedIn } from '../../app/session';
import { CodeField, Submit, fieldProblem } from '../../ui/forms';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/useAction';
import { AuthLayout } from '../AuthLayout';
import { DomainConflict } from './DomainConflict';
import { browserTimezone, domainConflictOf, type DomainHints } from './signupProof';
import './signup.css';

export function CheckEmail({ email, onRestart }: { email: string; onRestart(): void }) {
  const { route } = useLocation();
  const [code, setCode] = useState('');
  const [conflict, setConflict] = useState<{ code: string; hints: DomainHints }>();
  const [resentTo, setResentTo] = useState<string>();
  const verify = useAction();
  const resend = useAction();

  const submit = verify.handle(async () => {
    const proof = { email, code: code.trim() };
    try {
      await signedIn(await ok(api.POST('/api/v1/auth/register/verify', { body: proof })));
      route('/', true);
    } catch (err) {
      const hints = domainConflictOf(err);
      if (!hints) throw err;
      setConflict({ code: proof.code, hints });
    }
  });
  const sendAgain = () =>
    resend.run(async () => {
      setResentTo(undefined);
      const answer = await ok(api.POST('/api/v1/auth/register/resend', { body: { email, timezone: browserTimezone() } }));
      setResentTo(answer.email);
    });

  if (conflict) return <DomainConflict proof={{ email, code: conflict.code }} hints={conflict.hints} />;
  return (
    <AuthLayout title="Check your email">
      <p>
        A six-digit code and a link to confirm <strong>{email}</strong> are on their way. Enter the code or open the link. Both work for 10 minutes from the first email; a new email does not extend
        that.
      </p>
      <form onSubmit={submit} noValidate>
        <CodeField value={code} onValue={setCode} error={verify.error} />
        <ErrorNote error={verify.error && !fieldProblem(verify.error, 'code') ? verify.error : undefined} />
        <Submit busy={verify.busy}>Confirm</Submit>
      </form>
      <div class="signup-resend">
        <button type="button" class="button secondary" disabled={resend.busy} aria-busy={resend.busy ? true : undefined} onClick={() => void sendAgain()}>
          {resend.busy ? 'Working…' : 'Resend the email'}
        </button>
        {resentTo && (
          <p class="notice" role="status">
            Asked for a new email to {resentTo}. One goes out unless the last was sent less than a minute ago; only the newest code and link work.
          </p>
        )}
        <ErrorNote error={resend.error} />
      </div>
      <div class="auth-links">
        <button type="button" class="link" onClick={onRestart}>
          Use another email
        </button>
        <a href="/sign-in">I have an account</a>
      </div>
    </AuthLayout>
  );
}

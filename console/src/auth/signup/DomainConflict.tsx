// The two ways on from a 409 `domain_has_org`: ask the owner of the organization already at the
// email's domain for an invitation (nothing is created), or create a separate organization held
// for a review. Both send the same proof verify was given; the server checks it again.

import { useId, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, ok } from '../../api/client';
import { signedIn } from '../../app/session';
import { Submit } from '../../ui/forms';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/useAction';
import { AuthLayout } from '../AuthLayout';
import type { DomainHints, SignupProof } from './signupProof';
import './signup.css';

/** The server's limit on the note for the reviewer (COMPANY_NOTE_MAX). */
const NOTE_MAX = 1000;

export function DomainConflict({ proof, hints }: { proof: SignupProof; hints: DomainHints }) {
  const { route } = useLocation();
  const [note, setNote] = useState('');
  const [ownerNotified, setOwnerNotified] = useState(false);
  const invite = useAction();
  const review = useAction();
  const noteId = useId();

  const askOwner = () =>
    invite.run(async () => {
      await ok(api.POST('/api/v1/auth/register/request-invite', { body: proof }));
      setOwnerNotified(true);
    });
  const askReview = review.handle(async () => {
    const companyNote = note.trim();
    const answer = await ok(api.POST('/api/v1/auth/register/domain-review', { body: { ...proof, ...(companyNote ? { company_note: companyNote } : {}) } }));
    await signedIn(answer);
    route('/', true);
  });

  if (ownerNotified) {
    return (
      <AuthLayout title="The owner was asked">
        <p class="notice" role="status">
          We emailed the owner ({hints.owner_email_masked}) that you would like to join their organization. No account was created: the invitation they send lets you choose your password and sign in.
        </p>
        <div class="auth-links">
          <a href="/sign-in">Sign in</a>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title="Your company is already on pp">
      <p>
        Your email is confirmed. An organization on pp, <strong data-testid="org-name-masked">{hints.org_name_masked}</strong>, already has members at your email's domain; its owner is{' '}
        <strong data-testid="owner-email-masked">{hints.owner_email_masked}</strong>.
      </p>
      <section class="signup-choice" aria-labelledby={`${noteId}-invite`}>
        <h2 id={`${noteId}-invite`}>Join it</h2>
        <p class="hint">The owner gets an email with your address. Nothing is created until they invite you.</p>
        <ErrorNote error={invite.error} />
        <button type="button" class="button primary" disabled={invite.busy || review.busy} aria-busy={invite.busy ? true : undefined} onClick={() => void askOwner()}>
          {invite.busy ? 'Working…' : 'Ask the owner for an invitation'}
        </button>
      </section>
      <section class="signup-choice" aria-labelledby={`${noteId}-review`}>
        <h2 id={`${noteId}-review`}>Start a separate organization</h2>
        <form onSubmit={askReview} noValidate>
          <div class="field">
            <label for={noteId}>Note for the review (optional)</label>
            <textarea id={noteId} rows={3} maxLength={NOTE_MAX} value={note} aria-describedby={`${noteId}-hint`} onInput={(e) => setNote((e.currentTarget as HTMLTextAreaElement).value)} />
            <div class="hint" id={`${noteId}-hint`}>
              Why your team needs its own organization; up to {NOTE_MAX} characters ({note.length} used).
            </div>
          </div>
          <ErrorNote error={review.error} />
          <Submit busy={review.busy} variant="secondary">
            Ask for a review of a new organization
          </Submit>
        </form>
      </section>
    </AuthLayout>
  );
}

// The landing page of the unsubscribe link in marketing email (the trial reminders) (/unsubscribe?token=…), which needs no
// session. Opening it only reads the state: mail scanners follow links, so unsubscribing takes the
// button. Afterwards the same token subscribes again.

import { useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api/client';
import { AuthLayout } from '../auth/AuthLayout';
import { useTokenFromUrl } from '../auth/tokenFromUrl';
import { ErrorNote, Loading } from '../ui/states';
import { useAsync } from '../ui/useAsync';
import { useAction } from '../ui/useAction';

const TITLE = 'Email from pp';

interface Preference {
  subscribed: boolean;
  email_masked: string;
  /** Set once the button on this page changed it. */
  changed?: boolean;
}

export function Unsubscribe() {
  const token = useTokenFromUrl();
  const state = useAsync(() => (token ? ok(api.GET('/api/v1/email/unsubscribe', { params: { query: { token } } })) : Promise.resolve(undefined)), [token]);
  const [preference, setPreference] = useState<Preference>();
  const action = useAction();

  if (!token) {
    return (
      <AuthLayout title={TITLE}>
        <ErrorNote error="This page needs the unsubscribe link from one of our emails." />
      </AuthLayout>
    );
  }
  if (state.loading) {
    return (
      <AuthLayout title={TITLE}>
        <Loading label="Reading your email settings…" />
      </AuthLayout>
    );
  }
  if (state.error || !state.data) return <LinkProblem error={state.error} />;

  const current: Preference = preference ?? state.data;
  const change = (subscribed: boolean) =>
    action.run(async () => {
      const path = subscribed ? '/api/v1/email/resubscribe' : '/api/v1/email/unsubscribe';
      const answer = await ok(api.POST(path, { body: { token } }));
      setPreference({ subscribed, email_masked: answer.email_masked, changed: true });
    });

  return (
    <AuthLayout title={TITLE}>
      <PreferenceLine preference={current} />
      <ErrorNote error={action.error} />
      <button
        type="button"
        class={`button ${current.subscribed ? 'primary' : 'secondary'}`}
        disabled={action.busy}
        aria-busy={action.busy ? true : undefined}
        onClick={() => void change(!current.subscribed)}
      >
        {action.busy ? 'Working…' : current.subscribed ? 'Unsubscribe' : 'Resubscribe'}
      </button>
      <p class="muted">Email about your account (sign-in codes, password resets, invitations) always arrives.</p>
      <div class="auth-links">
        <a href="/sign-in">Sign in to pp</a>
      </div>
    </AuthLayout>
  );
}

function PreferenceLine({ preference: p }: { preference: Preference }) {
  const address = <strong data-testid="email-masked">{p.email_masked}</strong>;
  if (!p.subscribed) {
    return (
      <p class="notice" role="status">
        {p.changed ? 'You are unsubscribed: ' : 'You are not subscribed: '}
        {address} gets no trial reminders.
      </p>
    );
  }
  return p.changed ? (
    <p class="notice" role="status">
      You are subscribed again: trial reminders go to {address}.
    </p>
  ) : (
    <p>Trial reminders go to {address}. Unsubscribe to stop them.</p>
  );
}

function LinkProblem({ error }: { error?: Error }) {
  const invalid = error instanceof ApiError && error.status === 422;
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <AuthLayout title={TITLE}>
      {invalid ? (
        <div class="error-note" role="alert">
          This unsubscribe link is not valid. Use the link from the newest email, copied whole.
        </div>
      ) : missing ? (
        <div class="error-note" role="alert">
          This installation sends no product email, so there is nothing to unsubscribe from.
        </div>
      ) : (
        <ErrorNote error={error} />
      )}
      <div class="auth-links">
        <a href="/sign-in">Sign in to pp</a>
      </div>
    </AuthLayout>
  );
}

// Activating a trial the risk rules held (/trial/activate): an owner or admin enters a mobile number,
// a six-digit code goes to it by SMS, and the right code starts the trial. A new code can be asked for
// once a minute (the countdown shows when); the server's refusals are shown beside their field.

import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, ok } from '../api/client';
import { loadBilling, useSession } from '../app/session';
import { CodeField, Field, Submit, fieldProblem } from '../ui/forms';
import { Empty, ErrorNote } from '../ui/states';
import { useAction } from '../ui/useAction';
import { formatDate, formatDateTime } from '../ui/format';
import { dayCount, isAdminRole, planName } from './planWords';
import './billing.css';

/** The server sends at most one code a minute per organization. */
const RESEND_AFTER_MS = 60_000;

interface Sent {
  phone_masked: string;
  expires_at: string;
}

/** Seconds until `until` (epoch ms), ticking each second while above zero. */
function useCountdown(until: number): number {
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => {
      const s = left();
      setSeconds(s);
      if (s === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}

/** When a refused send may be tried again: a 429 names it, anything else leaves the countdown alone. */
const retryAt = (error: unknown): number | undefined =>
  error instanceof ApiError && error.status === 429 && typeof error.details.retry_after === 'number' ? Date.now() + error.details.retry_after * 1000 : undefined;

/** A 429 in words: the sign-in budgets and the SMS limits both answer it, with the seconds to wait. */
const tooManyText = (error: unknown) => (error instanceof ApiError && error.status === 429 ? `Too many attempts for now. Try again in ${Number(error.details.retry_after ?? 60)} s.` : undefined);

export function ActivateTrial() {
  const { me, billing } = useSession();
  const [phone, setPhone] = useState('');
  const [sent, setSent] = useState<Sent>();
  const [resendAt, setResendAt] = useState(0);
  const [activatedUntil, setActivatedUntil] = useState<string>();

  /** Sends a code to the number typed: the countdown restarts, or follows a refusal's Retry-After. */
  const send = async () => {
    try {
      setSent(await ok(api.POST('/api/v1/auth/trial/sms', { body: { phone: phone.trim() } })));
      setResendAt(Date.now() + RESEND_AFTER_MS);
    } catch (err) {
      const at = retryAt(err);
      if (at) setResendAt(at);
      throw err;
    }
  };

  if (!me) return null;
  let body;
  if (activatedUntil) {
    body = <Activated until={activatedUntil} />;
  } else if (billing?.trial_state !== 'sms_required') {
    body = (
      <Empty title="Nothing to activate">
        This organization’s trial does not wait for a phone confirmation. <a href="/org/billing">See plan and billing</a>
      </Empty>
    );
  } else if (!isAdminRole(me.org.role)) {
    body = <Empty title="An owner or admin activates the trial">Ask one of them to confirm a mobile phone number for the organization.</Empty>;
  } else if (!sent) {
    body = <PhoneStep phone={phone} onPhone={setPhone} send={send} resendAt={resendAt} />;
  } else {
    body = <CodeStep sent={sent} resendAt={resendAt} send={send} onOtherNumber={() => setSent(undefined)} onActivated={setActivatedUntil} />;
  }
  return (
    <section aria-labelledby="activate-title" class="activate-trial">
      <div class="page-header">
        <h1 id="activate-title">Activate your trial</h1>
        <span class="muted">{me.org.name}</span>
      </div>
      {body}
    </section>
  );
}

function PhoneStep({ phone, onPhone, send, resendAt }: { phone: string; onPhone(v: string): void; send(): Promise<void>; resendAt: number }) {
  const { busy, error, handle } = useAction();
  const wait = useCountdown(resendAt);
  const submit = handle(send);
  return (
    <form class="card form-grid" onSubmit={submit} noValidate aria-labelledby="phone-title">
      <h2 id="phone-title">Get a code by SMS</h2>
      <p>Enter a mobile phone number and we text it a six-digit code. A number can activate one organization, and is kept only as a fingerprint.</p>
      <Field
        label="Mobile phone number"
        type="tel"
        autocomplete="tel"
        inputMode="tel"
        required
        autoFocus
        value={phone}
        onValue={onPhone}
        hint="In international format: + and the country code, e.g. +49 151 2345 6712."
        problem={fieldProblem(error, 'phone')}
      />
      <ErrorNote error={tooManyText(error) ?? (error && !fieldProblem(error, 'phone') ? error : undefined)} />
      <div>
        <Submit busy={busy}>Send the code</Submit> {wait > 0 && <Countdown seconds={wait} />}
      </div>
    </form>
  );
}

function Countdown({ seconds }: { seconds: number }) {
  return (
    <span class="muted" data-testid="resend-countdown">
      A new code can be sent in {seconds} s.
    </span>
  );
}

function CodeStep({ sent, resendAt, send, onOtherNumber, onActivated }: { sent: Sent; resendAt: number; send(): Promise<void>; onOtherNumber(): void; onActivated(until: string): void }) {
  const [code, setCode] = useState('');
  const verify = useAction();
  const resend = useAction();
  const wait = useCountdown(resendAt);
  const submit = verify.handle(async () => {
    const answer = await ok(api.POST('/api/v1/auth/trial/sms/verify', { body: { code: code.trim() } }));
    // The banner and every page read the subscription from the session.
    await loadBilling();
    onActivated(answer.subscription.trial_ends_at);
  });
  const sendAgain = () =>
    resend.run(async () => {
      await send();
      setCode('');
      verify.clear();
    });
  return (
    <div class="card">
      <form class="form-grid" onSubmit={submit} noValidate aria-labelledby="code-title">
        <h2 id="code-title">Enter the code</h2>
        <p role="status">
          We sent a six-digit code to <strong data-testid="phone-masked">{sent.phone_masked}</strong>. It works until {formatDateTime(sent.expires_at)}; only the newest code works.
        </p>
        <CodeField value={code} onValue={setCode} error={verify.error} />
        <ErrorNote error={tooManyText(verify.error) ?? (verify.error && !fieldProblem(verify.error, 'code') ? verify.error : undefined)} />
        <div>
          <Submit busy={verify.busy}>Activate the trial</Submit>
        </div>
      </form>
      <div class="sms-resend">
        <button type="button" class="button secondary" disabled={wait > 0 || resend.busy} aria-busy={resend.busy ? true : undefined} onClick={() => void sendAgain()}>
          {resend.busy ? 'Working…' : 'Send a new code'}
        </button>{' '}
        {wait > 0 && <Countdown seconds={wait} />}
        <button type="button" class="link" onClick={onOtherNumber}>
          Use another number
        </button>
        <ErrorNote error={tooManyText(resend.error) ?? resend.error} />
      </div>
    </div>
  );
}

function Activated({ until }: { until: string }) {
  const { billing, projects } = useSession();
  const days = billing?.trial_days_left;
  return (
    <div class="card" role="status">
      <h2>Your trial has started</h2>
      <p>
        {typeof days === 'number' ? `${dayCount(days)} of the ${planName(billing?.plan)} plan, ` : 'It runs '}until {formatDate(until)}. Everything is open: collect events, build reports, invite your
        team.
      </p>
      <a class="button primary" href={projects?.[0] ? `/projects/${projects[0].id}` : '/'}>
        Go to your project
      </a>
    </div>
  );
}

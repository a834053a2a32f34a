// The states every page shows besides its content: loading, empty, and an error with the server's
// own message (and request id when there is one). A refusal for the organization's account state
// (held trial, paused account) is explained with where to go about it instead.

import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';
import { AccountLimitNote, PausedPanel, accountLimitOf, isPaused } from '../billing/accountLimits';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="state loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="state empty">
      <strong>{title}</strong>
      {children && <div>{children}</div>}
    </div>
  );
}

export function ErrorNote({ error }: { error?: Error | string | null }) {
  if (!error) return null;
  const limit = accountLimitOf(error);
  if (limit) return <AccountLimitNote limit={limit} />;
  const message = typeof error === 'string' ? error : error.message;
  const requestId = error instanceof ApiError ? (error.details.request_id as string | undefined) : undefined;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div class="error-note" role="alert">
      {message}
      {code && code !== 'validation_failed' && <span class="muted"> ({code})</span>}
      {requestId && <span class="muted"> request {requestId}</span>}
    </div>
  );
}

/** The error of a page's main answer: a paused organization gets the whole panel, anything else the error line. */
export function AnswerError({ error }: { error?: Error | null }) {
  const limit = accountLimitOf(error);
  return isPaused(limit) ? <PausedPanel limit={limit} /> : <ErrorNote error={error} />;
}

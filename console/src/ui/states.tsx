// The states every page shows besides its content: loading, empty, and an error with the server's
// own message (and request id when there is one).

import type { ComponentChildren } from 'preact';
import { ApiError } from '../api/client';

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

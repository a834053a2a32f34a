// The durable outbox: every message is committed to SQLite before anyone tries to send it, so a crash
// or an unreachable mail server loses nothing. Bodies are sealed (they carry one-time links) and
// erased once delivered. Delivery itself is the mail worker's job.

import type { Services } from '../http/services.js';
import { deriveKey } from '../ground/secretKeys.js';
import { open, seal } from '../ground/secretBox.js';
import { DUE, dueBounds, markAttemptFailed, MAX_ATTEMPTS, type DeliveryState } from './deliveryAttempts.js';

export interface MailMessage {
  /** What the message is for (`password_reset`, `invite`), shown by `ppctl mail outbox`. */
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra header lines (`List-Unsubscribe`), sealed with the body; rows queued before they existed have none. */
  headers?: Record<string, string>;
}

/** An outbox row as operators see it: never the body. */
export interface OutboxEntry extends DeliveryState {
  id: number;
  kind: string;
  to: string;
  subject: string;
}

export interface DueMessage extends MailMessage {
  id: number;
  attempts: number;
}

function key(services: Services): Buffer {
  return deriveKey(services.secret, 'mail-encryption');
}

/** Queues a message; call inside the caller's transaction so the message commits with what it announces. */
export function enqueueMail(services: Services, message: MailMessage): number {
  const now = services.clock.now().toISOString();
  const body = seal(key(services), JSON.stringify({ text: message.text, html: message.html, headers: message.headers }));
  const info = services.meta
    .prepare(
      `INSERT INTO outbox (kind, to_address, subject, body_sealed, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, ?, 'queued', 0, ?, ?)`,
    )
    .run(message.kind, message.to, message.subject, body, now, now);
  return Number(info.lastInsertRowid);
}

export function dueMessages(services: Services, limit: number): DueMessage[] {
  const rows = services.meta
    .prepare(
      `SELECT id, kind, to_address, subject, body_sealed, attempts FROM outbox
        WHERE status = 'queued' AND ${DUE} ORDER BY next_attempt_at, id LIMIT ?`,
    )
    .all(...dueBounds(services.clock.now()), limit) as Array<{ id: number; kind: string; to_address: string; subject: string; body_sealed: string; attempts: number }>;
  const due: DueMessage[] = [];
  for (const r of rows) {
    let body: Pick<MailMessage, 'text' | 'html' | 'headers'>;
    try {
      body = JSON.parse(open(key(services), r.body_sealed)) as Pick<MailMessage, 'text' | 'html' | 'headers'>;
    } catch {
      // Sealed under another server secret: it can never be sent, so retrying would only spin.
      markAttemptFailed(services, 'outbox', r.id, MAX_ATTEMPTS - 1, 'body cannot be decrypted with the current server secret');
      continue;
    }
    due.push({ id: r.id, kind: r.kind, to: r.to_address, subject: r.subject, text: body.text, html: body.html, headers: body.headers, attempts: r.attempts });
  }
  return due;
}

/** Newest first; `ppctl mail outbox` prints this. */
export function listOutbox(services: Services, limit = 200): OutboxEntry[] {
  const rows = services.meta
    .prepare(
      `SELECT id, kind, to_address, subject, status, attempts, next_attempt_at, last_error, created_at, sent_at
         FROM outbox ORDER BY id DESC LIMIT ?`,
    )
    .all(limit) as Array<Omit<OutboxEntry, 'to'> & { to_address: string }>;
  return rows.map(({ to_address, ...r }) => ({ ...r, to: to_address, next_attempt_at: r.status === 'queued' ? r.next_attempt_at : null }));
}

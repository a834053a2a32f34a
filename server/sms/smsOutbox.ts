// The durable SMS outbox, the text-message twin of the mail outbox: a message is committed before
// anyone tries to send it, the number and the text (which carries a code) are sealed together and
// erased once delivered or given up, and failures back off as mail does. Sending is smsWorker.ts's job.

import type { Services } from '../http/services.js';
import { deriveKey } from '../ground/secretKeys.js';
import { open, seal } from '../ground/secretBox.js';
import { DUE, dueBounds, markAttemptFailed, MAX_ATTEMPTS, type DeliveryState } from '../mail/deliveryAttempts.js';
import { maskPhone } from './phoneNumber.js';

export interface SmsMessage {
  /** What the message is for (`trial_activation`), shown by `ppctl sms outbox`. */
  kind: string;
  /** E.164. */
  to: string;
  text: string;
}

/** An outbox row as operators see it: the number masked, never the text. */
export interface SmsOutboxEntry extends DeliveryState {
  id: number;
  kind: string;
  to_masked: string;
}

export interface DueSms extends SmsMessage {
  id: number;
  attempts: number;
}

function key(services: Services): Buffer {
  return deriveKey(services.secret, 'sms-encryption');
}

/** Queues a message; call inside the caller's transaction so it commits with what it announces. */
export function enqueueSms(services: Services, message: SmsMessage): number {
  const now = services.clock.now().toISOString();
  const body = seal(key(services), JSON.stringify({ to: message.to, text: message.text }));
  const info = services.meta
    .prepare(
      `INSERT INTO sms_outbox (kind, to_masked, body_sealed, status, attempts, next_attempt_at, created_at)
       VALUES (?, ?, ?, 'queued', 0, ?, ?)`,
    )
    .run(message.kind, maskPhone(message.to), body, now, now);
  return Number(info.lastInsertRowid);
}

export function dueSms(services: Services, limit: number): DueSms[] {
  const rows = services.meta
    .prepare(
      `SELECT id, kind, body_sealed, attempts FROM sms_outbox
        WHERE status = 'queued' AND ${DUE} ORDER BY next_attempt_at, id LIMIT ?`,
    )
    .all(...dueBounds(services.clock.now()), limit) as Array<{ id: number; kind: string; body_sealed: string; attempts: number }>;
  return rows.flatMap((r) => {
    try {
      const body = JSON.parse(open(key(services), r.body_sealed)) as { to: string; text: string };
      return [{ id: r.id, kind: r.kind, to: body.to, text: body.text, attempts: r.attempts }];
    } catch {
      // Sealed under another server secret: it can never be sent, so retrying would only spin.
      markAttemptFailed(services, 'sms_outbox', r.id, MAX_ATTEMPTS - 1, 'body cannot be decrypted with the current server secret');
      return [];
    }
  });
}

/** Newest first; `ppctl sms outbox` prints this. */
export function listSmsOutbox(services: Services, limit = 200): SmsOutboxEntry[] {
  const rows = services.meta
    .prepare('SELECT id, kind, to_masked, status, attempts, next_attempt_at, last_error, created_at, sent_at FROM sms_outbox ORDER BY id DESC LIMIT ?')
    .all(limit) as SmsOutboxEntry[];
  return rows.map((r) => ({ ...r, next_attempt_at: r.status === 'queued' ? r.next_attempt_at : null }));
}

// What the mail and SMS outboxes share: how often and how long a message is retried, and how a
// delivery or a failed attempt is recorded on its row. Both tables have the same delivery columns.

import type { Services } from '../http/services.js';
import { STEP_TOLERANCE_MS } from '../ground/clock.js';

export type OutboxTable = 'outbox' | 'sms_outbox';

export type OutboxStatus = 'queued' | 'sent' | 'failed';

/** The delivery columns of an outbox row, as operators see them. */
export interface DeliveryState {
  status: OutboxStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
}

/** After this many failed attempts a message is marked failed and no longer retried. */
export const MAX_ATTEMPTS = 10;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;

/** 30 s after the first failure, doubling, at most an hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

/**
 * Which queued rows are due: those whose attempt time has come, and those whose attempt time lies
 * further ahead than any retry delay, which were scheduled before the clock stepped back and would
 * otherwise wait for the step. Bind `dueBounds(now)` to its two placeholders.
 */
export const DUE = '(next_attempt_at <= ? OR next_attempt_at > ?)';

export function dueBounds(now: Date): [string, string] {
  return [now.toISOString(), new Date(now.getTime() + LONGEST_RETRY_MS + STEP_TOLERANCE_MS).toISOString()];
}

/** Delivered: the sealed body (it carries one-time links or codes) is erased. */
export function markDelivered(services: Services, table: OutboxTable, id: number): void {
  services.meta.prepare(`UPDATE ${table} SET status = 'sent', attempts = attempts + 1, sent_at = ?, body_sealed = NULL, last_error = NULL WHERE id = ?`).run(services.clock.now().toISOString(), id);
}

/** Records a failed attempt: retried later with backoff, or failed for good (body erased) after MAX_ATTEMPTS. */
export function markAttemptFailed(services: Services, table: OutboxTable, id: number, attemptsBefore: number, error: string): void {
  const attempts = attemptsBefore + 1;
  if (attempts >= MAX_ATTEMPTS) {
    services.meta.prepare(`UPDATE ${table} SET status = 'failed', attempts = ?, last_error = ?, body_sealed = NULL WHERE id = ?`).run(attempts, error, id);
    return;
  }
  const next = new Date(services.clock.now().getTime() + retryDelayMs(attempts)).toISOString();
  services.meta.prepare(`UPDATE ${table} SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ?`).run(attempts, error, next, id);
}

// Reminds the owners of a cloud organization that its trial ends: once when three days or less are
// left, once more in its last day. A reminder is kept per trial end, so a trial that starts again
// (a held trial activated) is reminded again. Owners who unsubscribed (unsubscribe.ts) are skipped;
// delivery is the mail worker's.

import type { Services } from '../http/services.js';
import { enqueueMail } from '../mail/outbox.js';
import { notifyMailWorker } from '../mail/mailWorker.js';
import { trialReminderMessage } from '../mail/messages.js';
import { unsubscribeToken } from './unsubscribe.js';

const DAY_MS = 86_400_000;
const PASS_EVERY_MS = 10 * 60_000;

export type ReminderKind = '3d' | '1d';

export interface ReminderPass {
  /** Organizations reminded in this pass. */
  reminded: number;
  /** Emails queued (owners who unsubscribed get none). */
  emails: number;
}

interface EndingTrial {
  org_id: number;
  name: string;
  trial_ends_at: string;
}

/** Which reminder is due for a trial ending at `endsAt`, if any: the last day's, or the one three days before. */
export function reminderDue(endsAt: Date, now: Date): ReminderKind | undefined {
  const left = endsAt.getTime() - now.getTime();
  if (left <= 0 || left > 3 * DAY_MS) return undefined;
  return left <= DAY_MS ? '1d' : '3d';
}

function endingTrials(services: Services, now: Date): EndingTrial[] {
  return services.meta
    .prepare(
      `SELECT s.org_id, o.name, s.trial_ends_at FROM subscriptions s JOIN organizations o ON o.id = s.org_id
        WHERE s.status = 'trialing' AND s.trial_ends_at > ? AND s.trial_ends_at <= ? ORDER BY s.org_id`,
    )
    .all(now.toISOString(), new Date(now.getTime() + 3 * DAY_MS).toISOString()) as EndingTrial[];
}

function subscribedOwners(services: Services, orgId: number): Array<{ id: number; email: string }> {
  return services.meta
    .prepare(
      `SELECT u.id, u.email FROM memberships m JOIN users u ON u.id = m.user_id
        WHERE m.org_id = ? AND m.role = 'owner' AND u.marketing_opt_out_at IS NULL ORDER BY u.id`,
    )
    .all(orgId) as Array<{ id: number; email: string }>;
}

/**
 * Queues the reminders due at the services' clock; each is recorded with its emails in one
 * transaction, so none goes twice. A reminder is recorded even when every owner unsubscribed.
 */
export function runTrialReminders(services: Services): ReminderPass {
  const now = services.clock.now();
  const pass: ReminderPass = { reminded: 0, emails: 0 };
  for (const trial of endingTrials(services, now)) {
    const endsAt = new Date(trial.trial_ends_at);
    const kind = reminderDue(endsAt, now);
    if (!kind) continue;
    services.meta.transaction(() => {
      const fresh = services.meta
        .prepare('INSERT INTO trial_reminders (org_id, kind, trial_ends_at, sent_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
        .run(trial.org_id, kind, trial.trial_ends_at, now.toISOString()).changes;
      if (fresh === 0) return;
      pass.reminded += 1;
      for (const owner of subscribedOwners(services, trial.org_id)) {
        enqueueMail(services, trialReminderMessage(services.config.base_url, owner.email, { orgName: trial.name, endsAt, unsubscribeToken: unsubscribeToken(services, owner.id) }));
        pass.emails += 1;
      }
    })();
  }
  if (pass.emails > 0) notifyMailWorker(services);
  return pass;
}

/** Runs a pass every ten minutes while the server runs (cloud edition only); stopped at shutdown. */
export function startTrialReminders(services: Services): void {
  if (services.config.edition !== 'cloud') return;
  const timer = setInterval(() => {
    try {
      const pass = runTrialReminders(services);
      if (pass.reminded > 0) services.log.info(pass, 'trial reminders queued');
    } catch (err) {
      services.log.error({ err }, 'trial reminder pass failed');
    }
  }, PASS_EVERY_MS);
  timer.unref();
  services.onShutdown(() => clearInterval(timer));
}

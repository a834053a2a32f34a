// Delivers the outbox over SMTP (nodemailer) when `smtp_url` is configured: a pass runs right after a
// message is queued and every few seconds, sends what is due, and reschedules failures with backoff.
// Without `smtp_url` messages simply wait in the outbox. One worker per running server, stopped
// (after its current pass) when the server shuts down.

import nodemailer, { type Transporter } from 'nodemailer';
import type { Services } from '../http/services.js';
import { dueMessages } from './outbox.js';
import { markAttemptFailed, markDelivered } from './deliveryAttempts.js';

const POLL_MS = 5_000;
const BATCH = 20;

export interface MailWorker {
  /** Runs a delivery pass now (or right after the current one) and resolves when it is done. */
  kick(): Promise<void>;
  /** Delivers from now on: every few seconds and after each queued message. */
  start(): void;
  stop(): Promise<void>;
}

/** The worker of these services (delivering once workers.ts has started it). */
export function mailWorkerOf(services: Services): MailWorker {
  return services.workers.mail;
}

/** Tells the worker that something was queued; a no-op where no worker runs (CLI commands). */
export function notifyMailWorker(services: Services): void {
  void services.workers.mail.kick();
}

/** The worker, idle until started: `kick` does nothing before `start` and after `stop`. */
export function createMailWorker(services: Services): MailWorker {
  const smtpUrl = services.config.smtp_url;
  let transport: Transporter | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let started = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const pass = async (): Promise<void> => {
    if (!smtpUrl) return;
    transport ??= nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
    for (const m of dueMessages(services, BATCH)) {
      try {
        await transport.sendMail({ from: services.config.mail_from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: m.headers });
        markDelivered(services, 'outbox', m.id);
      } catch (err) {
        const reason = err instanceof Error ? err.message.slice(0, 500) : String(err);
        markAttemptFailed(services, 'outbox', m.id, m.attempts, reason);
        services.log.warn({ outbox_id: m.id, attempt: m.attempts + 1, err: reason }, 'mail delivery failed; will retry');
      }
    }
  };

  const kick = (): Promise<void> => {
    if (!started || stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await pass().catch((err: unknown) => services.log.error({ err }, 'mail worker pass failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    kick,
    start() {
      if (started) return;
      started = true;
      timer = setInterval(() => void kick(), POLL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      transport?.close();
    },
  };
}
